//! The loop: messages framed on standard input (`Content-Length: N`, a blank line, N bytes of
//! JSON), each answered before the next is read; the protocol's life cycle (initialize,
//! shutdown, exit); and dispatch to the features. A handler that fails answers an error and
//! the server goes on.

use std::collections::BTreeMap;
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
pub(super) enum Phase {
    #[default]
    Starting,
    Running,
    ShutDown,
}

/// What a document's diagnostics still wait for: a check of its own new text (`edited`,
/// with its scenarios when it was opened or saved), or of a parent's (a variant open beside
/// it, checked lazily). `since` is the change that asked for it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Want {
    pub scenarios: bool,
    pub edited: bool,
    pub since: u64,
}

/// The server's state: the open documents, by URI, and where it is in its life cycle.
#[derive(Debug, Default)]
pub struct Server {
    pub(super) docs: BTreeMap<String, Document>,
    /// The documents whose last check is older than their text or a parent's, by key.
    pub(super) wants: BTreeMap<String, Want>,
    /// Counts the changes: a check begun before a change of its document is outdated.
    pub(super) epoch: u64,
    /// The check under way on the background thread: its document and the change it saw.
    pub(super) checking: Option<(String, u64)>,
    pub(super) phase: Phase,
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

/// The answer to text that is not a JSON-RPC message: an error for its id, when it has one.
pub(super) fn not_a_message(text: &str, e: &serde_json::Error) -> Message {
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

    /// Handles one message, and checks at once every document it changed and the open
    /// documents that extend them (in process, as the tests and the playground's editor do;
    /// `ninety lsp` checks on a thread of its own, see [`super::background`]): the messages to
    /// send back, and whether to go on.
    pub fn handle(&mut self, msg: Message) -> (Vec<Message>, Flow) {
        let (mut out, flow) = self.take(msg);
        out.extend(self.check_all_now());
        (out, flow)
    }

    /// Handles one message; a change only says which documents want a check: the messages
    /// to send back, and whether to go on.
    pub(super) fn take(&mut self, msg: Message) -> (Vec<Message>, Flow) {
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
                self.changed(&key, true);
                Ok(Vec::new())
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
                self.changed(&key, false);
                Ok(Vec::new())
            }
            "textDocument/didSave" => {
                let p: DidSaveTextDocumentParams = params(n.params)?;
                let key = documents::key_of(&p.text_document.uri);
                if let (Some(text), Some(doc)) = (p.text, self.docs.get_mut(&key)) {
                    doc.edit(None, &text);
                }
                if self.docs.contains_key(&key) {
                    self.changed(&key, true);
                }
                Ok(Vec::new())
            }
            "textDocument/didClose" => {
                let p: DidCloseTextDocumentParams = params(n.params)?;
                let key = documents::key_of(&p.text_document.uri);
                let Some(doc) = self.docs.remove(&key) else {
                    return Ok(Vec::new());
                };
                self.wants.remove(&key);
                self.epoch += 1;
                self.stale_dependents(&doc.path);
                Ok(vec![publish(&doc.uri, Vec::new())])
            }
            _ => Ok(Vec::new()),
        }
    }

    /// A document's text changed (opened, edited, saved): it wants a check (with its
    /// scenarios on open and save), and the open documents that extend it want one too.
    fn changed(&mut self, key: &str, scenarios: bool) {
        self.epoch += 1;
        let since = self.epoch;
        let want = self.wants.entry(key.to_string()).or_insert(Want {
            scenarios,
            edited: true,
            since,
        });
        want.scenarios |= scenarios;
        want.edited = true;
        want.since = since;
        if let Some(path) = self.docs.get(key).map(|d| d.path.clone()) {
            self.stale_dependents(&path);
        }
    }

    /// The open documents whose chain holds `path` want a check, lazily (theirs is older
    /// than a parent's text now).
    fn stale_dependents(&mut self, path: &str) {
        let since = self.epoch;
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
        for k in keys {
            let want = self.wants.entry(k).or_insert(Want {
                scenarios: false,
                edited: false,
                since,
            });
            want.since = since;
        }
    }

    /// Checks every document that wants it, here and now: those edited first, then the
    /// documents that extend them. Their diagnostics.
    pub(super) fn check_all_now(&mut self) -> Vec<Message> {
        let mut out = Vec::new();
        while let Some(key) = self.next_wanted(true) {
            let scenarios = self.wants.remove(&key).is_some_and(|w| w.scenarios);
            out.extend(self.check_one(&key, scenarios));
        }
        out
    }

    /// The next document to check: one edited (the first by key), else, when `lazily`, one
    /// a parent's change made stale.
    pub(super) fn next_wanted(&self, lazily: bool) -> Option<String> {
        let edited = self.wants.iter().find(|(_, w)| w.edited);
        let any = || self.wants.iter().next().filter(|_| lazily);
        edited.or_else(any).map(|(k, _)| k.clone())
    }

    pub(super) fn check_one(&mut self, key: &str, scenarios: bool) -> Option<Message> {
        if let Some(msg) = self.lost(key) {
            return Some(msg);
        }
        let path = self.docs.get(key)?.path.clone();
        let checked = documents::check(&self.docs, &path, scenarios);
        self.checked(key, checked)
    }

    /// A document whose text is not held: its one diagnostic says why.
    pub(super) fn lost(&mut self, key: &str) -> Option<Message> {
        let doc = self.docs.get_mut(key)?;
        let why = doc.problem.clone()?;
        doc.published.clear();
        Some(publish(&doc.uri, vec![problem(why)]))
    }

    /// A document's new check, kept and published.
    pub(super) fn checked(
        &mut self,
        key: &str,
        checked: Option<crate::compile::Checked>,
    ) -> Option<Message> {
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
