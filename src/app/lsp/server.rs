//! The loop: messages framed on standard input (`Content-Length: N`, a blank line, N bytes of
//! JSON), each answered before the next is read; the protocol's life cycle (initialize,
//! shutdown, exit); and dispatch to the features. A handler that fails answers an error and
//! the server goes on.

use std::collections::BTreeMap;
use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::str::FromStr;

use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response, ResponseError};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionParams, CodeActionProviderCapability,
    CompletionOptions, CompletionParams, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, GotoDefinitionParams, HoverParams,
    HoverProviderCapability, InitializeResult, OneOf, PublishDiagnosticsParams, ServerCapabilities,
    ServerInfo, TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions,
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::documents::{self, Document, Workspace};
use super::frame::{Frame, read_frame};
use super::{actions, completion, definition, diagnostics, hover};
use crate::base::limits::{LSP_DOCUMENTS, LSP_EDITS, grouped};

/// Whether the server goes on after a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// `exit`: 0 after a `shutdown` request, 1 without one, as the protocol says.
    Exit(i32),
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Phase {
    #[default]
    Starting,
    Running,
    ShutDown,
}

/// The server's state: the open documents, by URI, and where it is in its life cycle.
#[derive(Debug, Default)]
pub struct Server {
    pub(super) docs: BTreeMap<String, Document>,
    phase: Phase,
    /// Handlers that panicked (a bug in ninety), answered with an error and survived.
    failures: usize,
    /// Messages a request sends besides its response (a command's diagnostics, a message to
    /// show, a request to draw the lenses again), sent before it.
    pub(super) outbox: Vec<Message>,
    /// The last number given to an answer (semantic tokens' result ids, requests to the
    /// editor).
    pub(super) serial: u64,
    /// Whether the editor can be asked to draw its code lenses again.
    pub(super) lens_refresh: bool,
}

/// Serves the protocol on standard input and output until `exit`, or until the input ends.
/// Returns the exit code.
pub fn run() -> i32 {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut output = stdout.lock();
    let mut server = Server::default();
    loop {
        let text = match read_frame(&mut input) {
            Ok(Frame::Message(text)) => text,
            Ok(Frame::End) => return i32::from(server.phase != Phase::ShutDown),
            Ok(Frame::Skipped(why)) => {
                eprintln!("ninety lsp: skipping a message: {why}");
                continue;
            }
            Ok(Frame::Endless) => {
                eprintln!(
                    "ninety lsp: the input is not the language server protocol (no end of line in 16 MB)"
                );
                return 1;
            }
            Err(e) => {
                eprintln!("ninety lsp: cannot read standard input: {e}");
                return 1;
            }
        };
        let (replies, flow) = match serde_json::from_str::<Message>(&text) {
            Ok(msg) => server.handle(msg),
            Err(e) => (vec![not_a_message(&text, &e)], Flow::Continue),
        };
        for reply in replies {
            if reply.write(&mut output).is_err() {
                return 1;
            }
        }
        let _ = output.flush();
        if let Flow::Exit(code) = flow {
            return code;
        }
    }
}

/// The answer to text that is not a JSON-RPC message: an error for its id, when it has one.
fn not_a_message(text: &str, e: &serde_json::Error) -> Message {
    let (code, id) = match serde_json::from_str::<Value>(text) {
        Err(_) => (ErrorCode::ParseError, None),
        Ok(v) => (ErrorCode::InvalidRequest, request_id(v.get("id"))),
    };
    let response = Response {
        // JSON-RPC answers an unknown id with `null`; lsp-server's ids are numbers or strings,
        // so an unreadable one is answered as 0.
        id: id.unwrap_or_else(|| RequestId::from(0)),
        response_result: Err(ResponseError {
            code: code as i32,
            message: format!("not a JSON-RPC message: {e}"),
            data: None,
        }),
    };
    Message::Response(response)
}

fn request_id(v: Option<&Value>) -> Option<RequestId> {
    match v? {
        Value::Number(n) => n
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .map(RequestId::from),
        Value::String(s) => Some(RequestId::from(s.clone())),
        _ => None,
    }
}

pub(super) fn error(code: ErrorCode, message: impl Into<String>) -> ResponseError {
    ResponseError {
        code: code as i32,
        message: message.into(),
        data: None,
    }
}

pub(super) fn params<P: DeserializeOwned>(value: Value) -> Result<P, ResponseError> {
    serde_json::from_value(value).map_err(|e| error(ErrorCode::InvalidParams, e.to_string()))
}

pub(super) fn to_json(value: impl serde::Serialize) -> Result<Value, ResponseError> {
    serde_json::to_value(value).map_err(|e| error(ErrorCode::InternalError, e.to_string()))
}

/// What the server offers.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(["{", "\"", " ", ":"].map(String::from).to_vec()),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        ..super::features::capabilities()
    }
}

impl Server {
    pub fn new() -> Server {
        Server::default()
    }

    /// How many handlers have panicked so far (tests expect none).
    pub fn failures(&self) -> usize {
        self.failures
    }

    /// The text the server holds for a document, after every edit.
    pub fn text(&self, uri: &str) -> Option<&str> {
        let uri = lsp_types::Uri::from_str(uri).ok()?;
        self.docs
            .get(&documents::key_of(&uri))
            .map(|d| d.text.as_str())
    }

    /// Handles one message: the messages to send back, and whether to go on.
    pub fn handle(&mut self, msg: Message) -> (Vec<Message>, Flow) {
        match msg {
            Message::Request(req) => {
                let response = Message::Response(self.request(req));
                let mut out = std::mem::take(&mut self.outbox);
                out.push(response);
                (out, Flow::Continue)
            }
            Message::Notification(n) if n.method == "exit" => (
                Vec::new(),
                Flow::Exit(i32::from(self.phase != Phase::ShutDown)),
            ),
            Message::Notification(n) => {
                if self.phase != Phase::Running {
                    return (Vec::new(), Flow::Continue);
                }
                let method = n.method.clone();
                match catch_unwind(AssertUnwindSafe(|| self.notification(n))) {
                    Ok(Ok(out)) => (out, Flow::Continue),
                    Ok(Err(e)) => {
                        eprintln!("ninety lsp: {method}: {}", e.message);
                        (Vec::new(), Flow::Continue)
                    }
                    Err(_) => {
                        self.failures += 1;
                        eprintln!("ninety lsp: {method} failed (a bug in ninety)");
                        (Vec::new(), Flow::Continue)
                    }
                }
            }
            Message::Response(_) => (Vec::new(), Flow::Continue),
        }
    }

    fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        let result = match (self.phase, req.method.as_str()) {
            (Phase::Starting, "initialize") => {
                self.phase = Phase::Running;
                let refresh =
                    &req.params["capabilities"]["workspace"]["codeLens"]["refreshSupport"];
                self.lens_refresh = refresh.as_bool() == Some(true);
                to_json(InitializeResult {
                    capabilities: capabilities(),
                    server_info: Some(ServerInfo {
                        name: "ninety".into(),
                        version: Some(env!("CARGO_PKG_VERSION").into()),
                    }),
                })
            }
            (Phase::Starting, _) => Err(error(
                ErrorCode::ServerNotInitialized,
                "the first request must be `initialize`",
            )),
            (Phase::ShutDown, _) => Err(error(
                ErrorCode::InvalidRequest,
                "the server is shut down: only `exit` is expected",
            )),
            (Phase::Running, "initialize") => {
                Err(error(ErrorCode::InvalidRequest, "already initialized"))
            }
            (Phase::Running, "shutdown") => {
                self.phase = Phase::ShutDown;
                Ok(Value::Null)
            }
            (Phase::Running, _) => match catch_unwind(AssertUnwindSafe(|| self.answer(req))) {
                Ok(result) => result,
                Err(_) => {
                    self.failures += 1;
                    Err(error(
                        ErrorCode::InternalError,
                        "this request failed: a bug in ninety",
                    ))
                }
            },
        };
        Response {
            id,
            response_result: result,
        }
    }

    /// A request's answer.
    fn answer(&mut self, req: Request) -> Result<Value, ResponseError> {
        match req.method.as_str() {
            "textDocument/hover" => {
                let p: HoverParams = params(req.params)?;
                let key = documents::key_of(&p.text_document_position_params.text_document.uri);
                self.parent_for_hover(&key);
                let pos = p.text_document_position_params.position;
                to_json(self.docs.get(&key).and_then(|d| hover::hover(d, pos)))
            }
            "textDocument/completion" => {
                let p: CompletionParams = params(req.params)?;
                let key = documents::key_of(&p.text_document_position.text_document.uri);
                let ws = Workspace { docs: &self.docs };
                let items = self
                    .docs
                    .get(&key)
                    .map(|d| completion::complete(&ws, d, p.text_document_position.position));
                to_json(items)
            }
            "textDocument/definition" => {
                let p: GotoDefinitionParams = params(req.params)?;
                let key = documents::key_of(&p.text_document_position_params.text_document.uri);
                let pos = p.text_document_position_params.position;
                let at = self.docs.get(&key);
                to_json(at.and_then(|d| definition::definition(&self.docs, d, pos)))
            }
            "textDocument/codeAction" => {
                let p: CodeActionParams = params(req.params)?;
                let key = documents::key_of(&p.text_document.uri);
                let doc = self.docs.get(&key);
                to_json(doc.map(|d| actions::code_actions(d, p.range)))
            }
            _ => self.more(req),
        }
    }

    fn notification(&mut self, n: Notification) -> Result<Vec<Message>, ResponseError> {
        match n.method.as_str() {
            "textDocument/didOpen" => {
                let p: DidOpenTextDocumentParams = params(n.params)?;
                // Two URIs of one file are one document: the later text is the one held.
                let key = documents::key_of(&p.text_document.uri);
                if !self.docs.contains_key(&key) && self.docs.len() >= LSP_DOCUMENTS {
                    let why = format!(
                        "ninety holds at most {LSP_DOCUMENTS} open files: close one to check this one"
                    );
                    return Ok(vec![publish(&p.text_document.uri, vec![problem(why)])]);
                }
                let doc = Document::new(p.text_document.uri, p.text_document.text);
                self.docs.insert(key.clone(), doc);
                Ok(self.recheck(&key, true))
            }
            "textDocument/didChange" => {
                let p: DidChangeTextDocumentParams = params(n.params)?;
                let key = documents::key_of(&p.text_document.uri);
                let Some(doc) = self.docs.get_mut(&key) else {
                    return Ok(Vec::new());
                };
                if p.content_changes.len() > LSP_EDITS {
                    doc.lose(format!(
                        "one change of this file made {} edits, more than the {} ninety follows: close the file and open it again",
                        grouped(p.content_changes.len() as u64),
                        grouped(LSP_EDITS as u64)
                    ));
                } else {
                    for change in &p.content_changes {
                        doc.edit(change.range, &change.text);
                    }
                }
                Ok(self.recheck(&key, false))
            }
            "textDocument/didSave" => {
                let p: DidSaveTextDocumentParams = params(n.params)?;
                let key = documents::key_of(&p.text_document.uri);
                if let (Some(text), Some(doc)) = (p.text, self.docs.get_mut(&key)) {
                    doc.edit(None, &text);
                }
                Ok(self.recheck(&key, true))
            }
            "textDocument/didClose" => {
                let p: DidCloseTextDocumentParams = params(n.params)?;
                let key = documents::key_of(&p.text_document.uri);
                let Some(doc) = self.docs.remove(&key) else {
                    return Ok(Vec::new());
                };
                let mut out = vec![publish(&doc.uri, Vec::new())];
                out.extend(self.dependents(&doc.path));
                Ok(out)
            }
            _ => Ok(Vec::new()),
        }
    }

    /// Checks a document again (with its scenarios on open and save), then the open documents
    /// that extend it; their diagnostics.
    fn recheck(&mut self, key: &str, scenarios: bool) -> Vec<Message> {
        let Some(path) = self.docs.get(key).map(|d| d.path.clone()) else {
            return Vec::new();
        };
        let mut out: Vec<Message> = self.check_one(key, scenarios).into_iter().collect();
        out.extend(self.dependents(&path));
        out
    }

    pub(super) fn check_one(&mut self, key: &str, scenarios: bool) -> Option<Message> {
        if let Some(doc) = self.docs.get_mut(key)
            && let Some(why) = doc.problem.clone()
        {
            doc.published.clear();
            return Some(publish(&doc.uri, vec![problem(why)]));
        }
        let path = self.docs.get(key)?.path.clone();
        let checked = documents::check(&self.docs, &path, scenarios);
        let doc = self.docs.get_mut(key)?;
        doc.checked = checked;
        doc.parent = None;
        // The file or a parent changed (or every scenario ran again): the runs from the
        // editor are older than this check.
        doc.runs.clear();
        self.publish_again(key)
    }

    /// Publishes a document's diagnostics as its last check and runs found them.
    pub(super) fn publish_again(&mut self, key: &str) -> Option<Message> {
        let published = diagnostics::to_lsp(&self.docs, self.docs.get(key)?);
        let doc = self.docs.get_mut(key)?;
        let list = published.iter().map(|(d, _)| d.clone()).collect();
        doc.published = published;
        Some(publish(&doc.uri, list))
    }

    /// The open documents whose chain holds `path`, checked again.
    fn dependents(&mut self, path: &str) -> Vec<Message> {
        let keys: Vec<String> = self
            .docs
            .iter()
            .filter(|(_, d)| d.path != path)
            .filter(|(_, d)| {
                d.checked
                    .as_ref()
                    .is_some_and(|c| c.layers.iter().any(|l| l.path == path))
            })
            .map(|(k, _)| k.clone())
            .collect();
        keys.iter()
            .filter_map(|k| self.check_one(k, false))
            .collect()
    }

    /// Compiles a variant's parent once per text, for hover's "what it replaces".
    fn parent_for_hover(&mut self, key: &str) {
        let Some(doc) = self.docs.get(key).filter(|d| d.parent.is_none()) else {
            return;
        };
        let parent = hover::parent_program(&self.docs, doc);
        if let Some(doc) = self.docs.get_mut(key) {
            doc.parent = Some(parent);
        }
    }
}

/// A document's one diagnostic when it is not checked: at its start, an error.
fn problem(why: String) -> lsp_types::Diagnostic {
    lsp_types::Diagnostic {
        range: lsp_types::Range::default(),
        severity: Some(lsp_types::DiagnosticSeverity::ERROR),
        source: Some("ninety".into()),
        message: why,
        ..lsp_types::Diagnostic::default()
    }
}

pub(super) fn publish(uri: &lsp_types::Uri, diagnostics: Vec<lsp_types::Diagnostic>) -> Message {
    Message::Notification(Notification::new(
        "textDocument/publishDiagnostics".into(),
        PublishDiagnosticsParams {
            uri: uri.clone(),
            diagnostics,
            version: None,
        },
    ))
}
