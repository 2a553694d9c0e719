//! `ninety lsp`'s loop: messages are read on one thread, documents are checked on another,
//! and this one answers, so a ruleset that takes long to check never holds the editor.
//!
//! - **Changes wait to be checked.** An edit only says its document wants a check; edits
//!   already read are all applied before the check begins, so a burst of keystrokes costs
//!   one check, not one each.
//! - **A newer edit cancels a check.** A check runs on a copy of the texts; when its
//!   document changes while it runs, its result is dropped (never published) and the newer
//!   text is checked next.
//! - **Variants are checked lazily.** An open document that extends a changed one is checked
//!   again only when nothing else is waiting (no message to read, no edited document), or
//!   when a request asks about it.
//! - **Answers are never about an older text.** Messages are handled in order; a request
//!   about a document that wants a check waits for it (and `shutdown` for every one), and the
//!   messages after it wait behind it.

use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::str::FromStr;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};

use lsp_server::{Message, Request};

use super::documents::{self, Document};
use super::frame::{Frame, read_frame};
use super::server::{Flow, Phase, Server, not_a_message};
use crate::base::limits::SCRIPT_STACK_BYTES;
use crate::compile::Checked;

/// What the loop waits for: a message read, or a check done.
enum Input {
    Read(std::io::Result<Frame>),
    Checked(Box<Done>),
}

/// A check to run on the checking thread: a document's path, with the texts of every open
/// document as they were when it began.
struct Job {
    key: String,
    path: String,
    scenarios: bool,
    since: u64,
    docs: BTreeMap<String, Document>,
}

/// A check done: of which document, as of which change, and what it found.
struct Done {
    key: String,
    since: u64,
    checked: Option<Checked>,
}

/// Serves the protocol on standard input and output until `exit`, or until the input ends.
/// Returns the exit code.
pub fn run() -> i32 {
    let (tx, rx) = channel();
    let reader = tx.clone();
    let read = std::thread::Builder::new()
        .name("ninety lsp input".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            loop {
                let frame = read_frame(&mut input);
                let last = !matches!(frame, Ok(Frame::Message(_) | Frame::Skipped(_)));
                if reader.send(Input::Read(frame)).is_err() || last {
                    return;
                }
            }
        });
    let Some(jobs) = read.ok().and_then(|_| checker(tx)) else {
        eprintln!("ninety lsp: cannot start its threads");
        return 1;
    };
    let stdout = std::io::stdout();
    let mut output = stdout.lock();
    Loop {
        server: Server::default(),
        queue: VecDeque::new(),
        ended: false,
    }
    .serve(&rx, &jobs, &mut output)
}

/// The thread that checks documents, one at a time, on a stack deep enough for scripts;
/// where its jobs are sent.
fn checker(done: Sender<Input>) -> Option<Sender<Job>> {
    let (jobs, todo) = channel::<Job>();
    std::thread::Builder::new()
        .name("ninety lsp checks".into())
        .stack_size(SCRIPT_STACK_BYTES + (64 << 20))
        .spawn(move || {
            for job in todo {
                let checked = documents::check(&job.docs, &job.path, job.scenarios);
                let result = Done {
                    key: job.key,
                    since: job.since,
                    checked,
                };
                if done.send(Input::Checked(Box::new(result))).is_err() {
                    return;
                }
            }
        })
        .ok()?;
    Some(jobs)
}

/// The loop's state: the server, the messages read and not yet handled (in order), and
/// whether the input has ended.
struct Loop {
    server: Server,
    queue: VecDeque<Message>,
    ended: bool,
}

impl Loop {
    fn serve(&mut self, rx: &Receiver<Input>, jobs: &Sender<Job>, out: &mut dyn Write) -> i32 {
        loop {
            let mut replies = Vec::new();
            // The messages that can be handled now, in order.
            while let Some(msg) = self.queue.front() {
                if self.waits(msg) {
                    break;
                }
                let Some(msg) = self.queue.pop_front() else {
                    break;
                };
                let (more, flow) = self.server.take(msg);
                replies.extend(more);
                if let Flow::Exit(code) = flow {
                    return send(out, replies).map_or(1, |()| code);
                }
            }
            if send(out, replies).is_err() {
                return 1;
            }
            if self.ended && self.queue.is_empty() {
                return i32::from(self.server.phase != Phase::ShutDown);
            }
            // What the first message waits for is checked at once; other edits and the
            // variants, only when there is nothing to read.
            let first = self.queue.front().and_then(|m| self.about(m));
            if self.server.checking.is_none()
                && let Some(key) = first.filter(|k| self.server.wants.contains_key(k))
            {
                self.start(&key, jobs, out);
            }
            let input = match rx.try_recv() {
                Ok(input) => input,
                Err(TryRecvError::Empty) => {
                    if self.server.checking.is_none() {
                        let lazily = self.queue.is_empty() || self.shutting_down();
                        if let Some(key) = self.server.next_wanted(lazily) {
                            self.start(&key, jobs, out);
                            continue;
                        }
                    }
                    match rx.recv() {
                        Ok(input) => input,
                        Err(_) => return 1,
                    }
                }
                Err(TryRecvError::Disconnected) => return 1,
            };
            match input {
                Input::Read(frame) => {
                    if let Some(code) = self.read(frame, out) {
                        return code;
                    }
                }
                Input::Checked(done) => {
                    let replies = self.finished(done);
                    if send(out, replies).is_err() {
                        return 1;
                    }
                }
            }
        }
    }

    /// A frame read: queued, or said on stderr; `Some` exit code when the input cannot go on.
    fn read(&mut self, frame: std::io::Result<Frame>, out: &mut dyn Write) -> Option<i32> {
        match frame {
            Ok(Frame::Message(text)) => match serde_json::from_str::<Message>(&text) {
                Ok(msg) => self.queue.push_back(msg),
                Err(e) => {
                    if send(out, vec![not_a_message(&text, &e)]).is_err() {
                        return Some(1);
                    }
                }
            },
            Ok(Frame::Skipped(why)) => eprintln!("ninety lsp: skipping a message: {why}"),
            Ok(Frame::End) => self.ended = true,
            Ok(Frame::Endless) => {
                eprintln!(
                    "ninety lsp: the input is not the language server protocol (no end of line in 16 MB)"
                );
                return Some(1);
            }
            Err(e) => {
                eprintln!("ninety lsp: cannot read standard input: {e}");
                return Some(1);
            }
        }
        None
    }

    /// Starts the check of a document on the checking thread (one whose text is not held
    /// is answered here at once).
    fn start(&mut self, key: &str, jobs: &Sender<Job>, out: &mut dyn Write) {
        let s = &mut self.server;
        let Some(want) = s.wants.remove(key) else {
            return;
        };
        if let Some(lost) = s.lost(key) {
            let _ = send(out, vec![lost]);
            return;
        }
        let Some(path) = s.docs.get(key).map(|d| d.path.clone()) else {
            return;
        };
        let job = Job {
            key: key.to_string(),
            path,
            scenarios: want.scenarios,
            since: s.epoch,
            docs: s
                .docs
                .iter()
                .map(|(k, d)| (k.clone(), d.snapshot()))
                .collect(),
        };
        if jobs.send(job).is_ok() {
            s.checking = Some((key.to_string(), s.epoch));
        }
    }

    /// A check done: published, unless its document changed since it began (then it was
    /// cancelled: the newer text wants its own check).
    fn finished(&mut self, done: Box<Done>) -> Vec<Message> {
        let s = &mut self.server;
        s.checking = None;
        if s.wants.get(&done.key).is_some_and(|w| w.since > done.since) {
            return Vec::new();
        }
        s.checked(&done.key, done.checked).into_iter().collect()
    }

    /// Whether a message must wait: a request about a document whose check is not done
    /// (`shutdown`: any document's).
    fn waits(&self, msg: &Message) -> bool {
        let s = &self.server;
        let busy = |key: &str| {
            s.wants.contains_key(key) || s.checking.as_ref().is_some_and(|(k, _)| k == key)
        };
        match msg {
            Message::Request(r) if r.method == "shutdown" => {
                !s.wants.is_empty() || s.checking.is_some()
            }
            Message::Request(r) => document_of(r).is_some_and(|k| busy(&k)),
            _ => false,
        }
    }

    /// The document a message is about, when it is a request.
    fn about(&self, msg: &Message) -> Option<String> {
        match msg {
            Message::Request(r) if r.method == "shutdown" => self.server.next_wanted(true),
            Message::Request(r) => document_of(r),
            _ => None,
        }
    }

    /// Whether the first message waiting is `shutdown`: every document is checked first.
    fn shutting_down(&self) -> bool {
        matches!(self.queue.front(), Some(Message::Request(r)) if r.method == "shutdown")
    }
}

/// The key of the document a request names: its `textDocument`, or the first argument of a
/// command (running a scenario).
fn document_of(r: &Request) -> Option<String> {
    let uri = r.params["textDocument"]["uri"]
        .as_str()
        .or_else(|| r.params["arguments"][0].as_str())?;
    let uri = lsp_types::Uri::from_str(uri).ok()?;
    Some(documents::key_of(&uri))
}

/// Writes messages, flushed.
fn send(out: &mut dyn Write, msgs: Vec<Message>) -> std::io::Result<()> {
    if msgs.is_empty() {
        return Ok(());
    }
    for m in msgs {
        m.write(&mut &mut *out)?;
    }
    out.flush()
}
