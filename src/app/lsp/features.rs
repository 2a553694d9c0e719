//! The requests beyond hover, completion, definition and quick fixes: semantic tokens (full
//! and delta), the outline, formatting, renaming an option, and the code lenses with their
//! command. Each answers `null` (or nothing) for a document that is not open.

use std::str::FromStr;

use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, ResponseError};
use lsp_types::{
    CodeLensOptions, CodeLensParams, DocumentFormattingParams, DocumentSymbolParams,
    DocumentSymbolResponse, ExecuteCommandOptions, ExecuteCommandParams, MessageType, OneOf, Range,
    RenameOptions, RenameParams, SemanticTokensDeltaParams, SemanticTokensFullDeltaResult,
    SemanticTokensFullOptions, SemanticTokensOptions, SemanticTokensParams, SemanticTokensResult,
    ServerCapabilities, ShowMessageParams, TextDocumentPositionParams, TextEdit, Uri,
    WorkDoneProgressOptions,
};
use serde_json::{Value, json};

use super::documents::{self, Document};
use super::server::{Server, error, params, to_json};
use super::{format, lens, rename, symbols, tokens};

/// What these features add to the server's capabilities.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        semantic_tokens_provider: Some(
            SemanticTokensOptions {
                legend: tokens::legend(),
                range: Some(false),
                full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
                work_done_progress_options: WorkDoneProgressOptions::default(),
            }
            .into(),
        ),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![lens::RUN.to_string()],
            work_done_progress_options: WorkDoneProgressOptions::default(),
        }),
        ..ServerCapabilities::default()
    }
}

fn failed(message: String) -> ResponseError {
    error(ErrorCode::RequestFailed, message)
}

impl Server {
    /// A request these features answer (else "method not found").
    pub(super) fn more(&mut self, req: Request) -> Result<Value, ResponseError> {
        match req.method.as_str() {
            "textDocument/semanticTokens/full" => {
                let p: SemanticTokensParams = params(req.params)?;
                let id = self.next_serial();
                let doc = self.doc_mut(&p.text_document.uri);
                to_json(doc.map(|d| SemanticTokensResult::Tokens(tokens::full(d, id))))
            }
            "textDocument/semanticTokens/full/delta" => {
                let p: SemanticTokensDeltaParams = params(req.params)?;
                let id = self.next_serial();
                let doc = self.doc_mut(&p.text_document.uri);
                to_json(
                    doc.map(|d| match tokens::delta(d, &p.previous_result_id, id) {
                        Ok(delta) => SemanticTokensFullDeltaResult::TokensDelta(delta),
                        Err(full) => SemanticTokensFullDeltaResult::Tokens(full),
                    }),
                )
            }
            "textDocument/documentSymbol" => {
                let p: DocumentSymbolParams = params(req.params)?;
                let doc = self.doc(&p.text_document.uri);
                to_json(doc.map(|d| DocumentSymbolResponse::Nested(symbols::symbols(d))))
            }
            "textDocument/formatting" => {
                let p: DocumentFormattingParams = params(req.params)?;
                to_json(self.doc(&p.text_document.uri).and_then(formatting))
            }
            "textDocument/prepareRename" => {
                let p: TextDocumentPositionParams = params(req.params)?;
                let Some(doc) = self.doc(&p.text_document.uri) else {
                    return Ok(Value::Null);
                };
                to_json(rename::prepare(doc, p.position).map_err(failed)?)
            }
            "textDocument/rename" => {
                let p: RenameParams = params(req.params)?;
                let at = p.text_document_position;
                let Some(doc) = self.doc(&at.text_document.uri) else {
                    return Ok(Value::Null);
                };
                let renamed = rename::rename(&self.docs, doc, at.position, &p.new_name);
                to_json(renamed.map_err(failed)?)
            }
            "textDocument/codeLens" => {
                let p: CodeLensParams = params(req.params)?;
                to_json(self.doc(&p.text_document.uri).map(lens::lenses))
            }
            "workspace/executeCommand" => {
                let p: ExecuteCommandParams = params(req.params)?;
                self.execute(&p)
            }
            other => Err(error(
                ErrorCode::MethodNotFound,
                format!("ninety lsp does not answer `{other}`"),
            )),
        }
    }

    fn next_serial(&mut self) -> u64 {
        self.serial += 1;
        self.serial
    }

    fn doc(&self, uri: &Uri) -> Option<&Document> {
        self.docs.get(&documents::key_of(uri))
    }

    fn doc_mut(&mut self, uri: &Uri) -> Option<&mut Document> {
        self.docs.get_mut(&documents::key_of(uri))
    }

    /// `ninety.runScenario URI NAME`: runs the scenario, says how it went in place.
    fn execute(&mut self, p: &ExecuteCommandParams) -> Result<Value, ResponseError> {
        if p.command != lens::RUN {
            return Err(error(
                ErrorCode::InvalidParams,
                format!("ninety lsp has no command `{}`", p.command),
            ));
        }
        let bad = || {
            error(
                ErrorCode::InvalidParams,
                format!(
                    "`{}` takes a document's URI and a scenario's name",
                    lens::RUN
                ),
            )
        };
        let (uri, name) = lens::arguments(&p.arguments).ok_or_else(bad)?;
        let uri = Uri::from_str(uri).map_err(|_| bad())?;
        let key = documents::key_of(&uri);
        let doc = self
            .docs
            .get(&key)
            .ok_or_else(|| failed("that file is not open in the editor".into()))?;
        let failure = lens::run(doc, name).map_err(failed)?;
        let (kind, message) = match &failure {
            None => (MessageType::INFO, format!("Scenario \"{name}\" passes.")),
            Some(d) => (
                MessageType::ERROR,
                format!("Scenario \"{name}\" fails: {}", d.message),
            ),
        };
        let passed = failure.is_none();
        if let Some(doc) = self.docs.get_mut(&key) {
            doc.runs.retain(|(n, _)| n != name);
            doc.runs.push((name.to_string(), failure));
        }
        let published = self.publish_again(&key);
        self.outbox.extend(published);
        self.outbox.push(Message::Notification(Notification::new(
            "window/showMessage".into(),
            ShowMessageParams {
                typ: kind,
                message: message.clone(),
            },
        )));
        if self.lens_refresh {
            let id = RequestId::from(format!("ninety-{}", self.next_serial()));
            self.outbox.push(Message::Request(Request::new(
                id,
                "workspace/codeLens/refresh".into(),
                Value::Null,
            )));
        }
        Ok(json!({ "scenario": name, "passed": passed, "message": message }))
    }
}

/// The edits that make a document canonical: one for each line whose spacing changes, and
/// one for the end of the file (the blank lines there go, one line break ends it). `None`
/// when the text does not parse.
fn formatting(doc: &Document) -> Option<Vec<TextEdit>> {
    if doc.problem.is_some() {
        return None;
    }
    let text = doc.text.as_str();
    let lines = format::lines(text)?;
    let mut edits = Vec::new();
    for (i, new) in lines.iter().enumerate() {
        let span = doc.lines.line_span(text, i);
        if text.get(span.start..span.end) != Some(new.as_str()) {
            edits.push(TextEdit::new(doc.range(span), new.clone()));
        }
    }
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let end = match lines.len() {
        0 => 0,
        n => doc.lines.line_span(text, n - 1).end,
    };
    if text.get(end..) != Some(newline) {
        let range = Range::new(
            doc.lines.position(text, end),
            doc.lines.position(text, text.len()),
        );
        edits.push(TextEdit::new(range, newline.to_string()));
    }
    Some(edits)
}
