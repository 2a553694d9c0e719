//! The documents the editor has open, their unsaved text, and the loader that reads them from
//! memory before the disk and the shipped rulesets; places in them as LSP positions (UTF-16
//! columns) and files as `file://` URIs.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::{Position, Range, Uri};

use crate::base::Span;
use crate::base::limits::{RULESET_BYTES, grouped};
use crate::compile::{self, Checked, Disk, Loader, SHIPPED, Shipped};
use crate::ir::Program;
use crate::lang::ast::{File, StatementKind};

/// An open document and what its last check found.
#[derive(Debug)]
pub struct Document {
    pub uri: Uri,
    /// The path the loader knows it by: the file's path, or the URI itself when it is not a
    /// file (an unsaved buffer).
    pub path: String,
    pub text: String,
    pub lines: LineIndex,
    /// The last check of the text (`None` before the first).
    pub checked: Option<Checked>,
    /// The published diagnostics, as sent, each with its own file's quick fix.
    pub published: Vec<(lsp_types::Diagnostic, Option<(Range, String)>)>,
    /// The compiled parent, for hover, worked out when first asked for.
    pub parent: Option<Option<Program>>,
    /// Why the text is not held (too big for a ruleset, or lost to a change too big to
    /// follow): then the document is not checked, and this is its one diagnostic.
    pub problem: Option<String>,
    /// The last semantic tokens sent, with their result id, for a delta.
    pub tokens: Option<(String, Vec<lsp_types::SemanticToken>)>,
    /// Scenarios run from the editor (the code lens) since the last change, with what each
    /// run found: a failure, or `None` when it passed.
    pub runs: Vec<(String, Option<crate::base::diag::Diag>)>,
}

impl Document {
    pub fn new(uri: Uri, text: String) -> Document {
        let path = path_of(&uri);
        let mut doc = Document {
            uri,
            path,
            lines: LineIndex::default(),
            text,
            checked: None,
            published: Vec::new(),
            parent: None,
            problem: None,
            tokens: None,
            runs: Vec::new(),
        };
        doc.settle();
        doc
    }

    /// The document's name and text alone (or why its text is not held), for a check on
    /// another thread: what the in-memory loader reads.
    pub fn snapshot(&self) -> Document {
        Document {
            uri: self.uri.clone(),
            path: self.path.clone(),
            text: self.text.clone(),
            lines: LineIndex::default(),
            checked: None,
            published: Vec::new(),
            parent: None,
            problem: self.problem.clone(),
            tokens: None,
            runs: Vec::new(),
        }
    }

    /// Replaces the text (a whole new text, or a range of it).
    pub fn edit(&mut self, range: Option<Range>, new: &str) {
        match range {
            None => {
                self.problem = None;
                self.text = new.to_string();
            }
            // Ranges of a text not held cannot be applied.
            Some(_) if self.problem.is_some() => return,
            Some(r) => {
                let start = self.lines.offset(&self.text, r.start);
                let end = self.lines.offset(&self.text, r.end).max(start);
                self.text.replace_range(start..end, new);
            }
        }
        self.settle();
    }

    /// After a change: a text past the size of a ruleset is not kept (the document says so
    /// until a whole new text fits); else its lines are found again.
    fn settle(&mut self) {
        if self.text.len() > RULESET_BYTES {
            self.lose(format!(
                "this file holds more than {} KB, more than a ruleset may: ninety does not check it",
                grouped(RULESET_BYTES as u64 / 1024)
            ));
            return;
        }
        self.lines = LineIndex::new(&self.text);
        self.parent = None;
        self.runs.clear();
    }

    /// The text is no longer held, for `why`.
    pub fn lose(&mut self, why: String) {
        self.text = String::new();
        self.lines = LineIndex::new("");
        self.checked = None;
        self.parent = None;
        self.runs.clear();
        self.problem = Some(why);
    }

    /// The document's own parsed file, from its last check.
    pub fn file(&self) -> Option<&File> {
        self.checked
            .as_ref()
            .and_then(|c| c.layers.last())
            .filter(|l| l.path == self.path)
            .map(|l| &l.file)
    }

    pub fn program(&self) -> Option<&Program> {
        self.checked.as_ref().and_then(|c| c.program.as_ref())
    }

    /// The span of the document's `extends "…"` text, quotes included.
    pub fn extends_span(&self) -> Option<Span> {
        self.file()?.statements.iter().find_map(|s| match &s.kind {
            StatementKind::Extends(name) => Some(name.span),
            _ => None,
        })
    }

    pub fn range(&self, span: Span) -> Range {
        Range::new(
            self.lines.position(&self.text, span.start),
            self.lines.position(&self.text, span.end),
        )
    }

    /// The byte offset of a position, and the 1-based line it is on (as the editor counts
    /// lines: see [`LineIndex`]).
    pub fn offset(&self, pos: Position) -> (usize, usize) {
        let at = self.lines.offset(&self.text, pos);
        (at, self.lines.line_of(at) + 1)
    }

    /// The 1-based line of a byte offset as the checker counts lines (only `\n` ends one; a
    /// lone `\r` is a space to it): the lines statements and the program's origins name.
    pub fn source_line(&self, at: usize) -> usize {
        let at = at.min(self.text.len());
        1 + self.text.as_bytes()[..at]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
    }
}

/// Where each line of a text starts, to turn byte offsets into LSP positions and back. Lines
/// end as the protocol says, and every editor counts them: at `\n`, `\r\n` and a lone `\r`.
/// A position's `character` counts UTF-16 code units, as the protocol's default encoding
/// says.
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for (i, b) in bytes.iter().enumerate() {
            let ends = match b {
                b'\n' => true,
                b'\r' => bytes.get(i + 1) != Some(&b'\n'),
                _ => false,
            };
            if ends {
                starts.push(i + 1);
            }
        }
        LineIndex { starts }
    }

    /// Whether a 0-based line ends at a lone `\r`: a line break to the editor, a space to the
    /// checker.
    pub fn ends_at_lone_cr(&self, text: &str, line: usize) -> bool {
        self.starts
            .get(line + 1)
            .is_some_and(|&n| text.as_bytes().get(n - 1) == Some(&b'\r'))
    }

    /// The 0-based line of a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|s| *s <= offset)
            .saturating_sub(1)
    }

    /// The byte range of a 0-based line, without its line break.
    pub fn line_span(&self, text: &str, line: usize) -> Span {
        let start = self.starts.get(line).copied().unwrap_or(text.len());
        // The next line's start less the break: `\n`, `\r\n` or `\r`.
        let end = self.starts.get(line + 1).map_or(text.len(), |&n| {
            let bytes = text.as_bytes();
            let mut end = n;
            if end > start && bytes[end - 1] == b'\n' {
                end -= 1;
            }
            if end > start && bytes[end - 1] == b'\r' {
                end -= 1;
            }
            end
        });
        Span::new(start, end.max(start))
    }

    /// The position of a byte offset (clamped to the text, and to a character's start).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_of(offset);
        let start = self.starts[line];
        let character: usize = text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, character as u32)
    }

    /// The byte offset of a position. A line past the end is the end of the text; a column past
    /// the end of its line is the line's end; a column inside a character is its start.
    pub fn offset(&self, text: &str, pos: Position) -> usize {
        let line = pos.line as usize;
        if line >= self.starts.len() {
            return text.len();
        }
        let span = self.line_span(text, line);
        let mut units = 0;
        for (i, c) in text[span.start..span.end].char_indices() {
            units += c.len_utf16();
            if units > pos.character as usize {
                return span.start + i;
            }
        }
        span.end
    }
}

/// Reads the open documents from memory, then the disk and the shipped rulesets: a ruleset is
/// checked as the editor shows it, and so is a parent open beside it.
#[derive(Debug)]
pub struct Workspace<'a> {
    pub docs: &'a BTreeMap<String, Document>,
}

impl Workspace<'_> {
    fn open(&self, path: &str) -> Option<&Document> {
        self.docs
            .get(&identity(path))
            .or_else(|| self.docs.values().find(|d| d.path == path))
    }
}

/// The one name of a file however it is written: its real path when it is on the disk (links
/// and `..` worked out), else its path with `.` and `..` worked out by name. Two URIs of one
/// file (`a.rules` and `%61.rules`) are one document.
pub fn identity(path: &str) -> String {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real.display().to_string();
    }
    compile::normalize(Path::new(path))
        .map_or_else(|| path.to_string(), |p| p.display().to_string())
}

/// The key of the document a URI names: [`identity`] of its path.
pub fn key_of(uri: &Uri) -> String {
    identity(&path_of(uri))
}

impl Loader for Workspace<'_> {
    /// An open document's text, else the file through the disk loader (regular files only,
    /// within their caps), else a shipped ruleset.
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        match self.open(path) {
            Some(d) => match &d.problem {
                Some(why) => Err(why.clone()),
                None => Ok(d.text.clone().into_bytes()),
            },
            None => Shipped.read(path),
        }
    }

    fn exists(&self, path: &str) -> bool {
        self.open(path).is_some() || Disk.exists(path)
    }

    /// As `check` says: by name, and then where the disk's links lead (an open document not
    /// yet on the disk, by its name).
    fn inside(&self, root: &str, path: &str) -> bool {
        Disk.inside(root, path)
    }

    fn siblings(&self, path: &str) -> Vec<String> {
        let dir = Path::new(path).parent();
        let mut names = Shipped.siblings(path);
        for d in self.docs.values() {
            let p = Path::new(&d.path);
            if p.parent() == dir
                && p.extension().is_some_and(|x| x == "rules")
                && let Some(stem) = p.file_stem()
            {
                names.push(stem.to_string_lossy().into_owned());
            }
        }
        names.sort();
        names.dedup();
        names
    }

    fn canonical(&self, path: &str) -> String {
        identity(path)
    }
}

/// The loader path of a URI: a `file://` URI's path, decoded; any other URI as it is.
pub fn path_of(uri: &Uri) -> String {
    let text = uri.as_str();
    let Some(rest) = text.strip_prefix("file://") else {
        return text.to_string();
    };
    // `file:///home/…` (no host) or `file://localhost/home/…`.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let mut bytes = Vec::with_capacity(rest.len());
    let mut it = rest.bytes();
    while let Some(b) = it.next() {
        if b == b'%' {
            let hex: Vec<u8> = it.clone().take(2).collect();
            if let Some(v) = std::str::from_utf8(&hex)
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                bytes.push(v);
                it.nth(1);
                continue;
            }
        }
        bytes.push(b);
    }
    let path = String::from_utf8_lossy(&bytes).into_owned();
    // `file:///C:/x` on Windows.
    match path.as_bytes() {
        [b'/', d, b':', ..] if d.is_ascii_alphabetic() => path[1..].to_string(),
        _ => path,
    }
}

/// The `file://` URI of an absolute path (a relative one is taken from the current folder).
pub fn uri_of(path: &str) -> Option<Uri> {
    let p = Path::new(path);
    let absolute = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(p)
    };
    let text = absolute.to_string_lossy().replace('\\', "/");
    let mut out = String::from("file://");
    if !text.starts_with('/') {
        out.push('/');
    }
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) || (b == b':' && out.len() > 8) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&out).ok()
}

/// The URI to show a ruleset file at: the open document that has it, the file on the disk, or,
/// for a shipped ruleset that is not on the disk, a read-only copy of its text in the cache.
pub fn file_uri(docs: &BTreeMap<String, Document>, path: &str) -> Option<Uri> {
    if let Some(d) = docs.values().find(|d| d.path == path) {
        return Some(d.uri.clone());
    }
    if Path::new(path).is_file() {
        return uri_of(path);
    }
    let stem = Path::new(path).file_stem()?.to_str()?;
    let (name, text) = SHIPPED.iter().find(|(n, _)| *n == stem)?;
    uri_of(&cached_copy(name, text)?)
}

/// Writes a shipped ruleset's text, read-only, into ninety's own cache folder (see
/// [`cache_folder`]): the editor opens it, and an edit cannot be saved by mistake. The file
/// is written whole beside its name and renamed over it, never through a link.
fn cached_copy(name: &str, text: &str) -> Option<String> {
    let dir = cache_folder()?;
    let file = dir.join(format!("{name}.rules"));
    let plain = std::fs::symlink_metadata(&file).is_ok_and(|m| m.file_type().is_file());
    if plain && std::fs::read_to_string(&file).is_ok_and(|t| t == text) {
        return Some(file.display().to_string());
    }
    if std::fs::symlink_metadata(&file).is_ok_and(|m| !m.file_type().is_file()) {
        // Not ours: something else stands at that name.
        return None;
    }
    crate::app::atomic::write_atomically_as(&file, text.as_bytes(), "a cached ruleset", 0o444)
        .ok()?;
    Some(file.display().to_string())
}

/// `$XDG_CACHE_HOME/ninety/VERSION` (or `~/.cache/ninety/VERSION`); without either, a folder
/// of this user's own in the temporary folder, `ninety-UID/VERSION`. Each folder ninety
/// makes is made private (`0700`), and every one it uses must be a real folder (not a link)
/// of this user's, with no one else allowed to write in it: else there is no cache.
pub fn cache_folder() -> Option<PathBuf> {
    let home = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| Path::new(&h).join(".cache"))
        });
    let (base, ours) = match home {
        Some(base) => (base, "ninety".to_string()),
        None => (std::env::temp_dir(), format!("ninety-{}", user_id())),
    };
    std::fs::create_dir_all(&base).ok()?;
    let mut dir = base;
    for part in [ours.as_str(), env!("CARGO_PKG_VERSION")] {
        dir.push(part);
        private_folder(&dir)?;
    }
    Some(dir)
}

/// A folder of ninety's: made `0700` when it is not there; when it is, it must be a folder
/// (not a link) of this user, that no one else may write in.
fn private_folder(dir: &Path) -> Option<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, MetadataExt};
        let _ = std::fs::DirBuilder::new().mode(0o700).create(dir);
        let meta = std::fs::symlink_metadata(dir).ok()?;
        let mine = meta.uid() == user_id();
        (meta.file_type().is_dir() && mine && meta.mode() & 0o022 == 0).then_some(())
    }
    #[cfg(not(unix))]
    {
        let _ = std::fs::create_dir(dir);
        let meta = std::fs::symlink_metadata(dir).ok()?;
        meta.file_type().is_dir().then_some(())
    }
}

/// This process's user. `getuid` is the one way to ask; it has no preconditions and cannot
/// fail.
#[cfg(unix)]
#[allow(unsafe_code)]
fn user_id() -> u32 {
    // SAFETY: `getuid` takes nothing, touches no memory of ours, and always succeeds.
    unsafe { libc::getuid() }
}

#[cfg(not(unix))]
fn user_id() -> u32 {
    0
}

/// Checks a document as the editor has it: `compile::check` (the same as `ninety check`
/// without scenarios), or with its scenarios run too (`app::load::check_one`).
pub fn check(docs: &BTreeMap<String, Document>, path: &str, scenarios: bool) -> Option<Checked> {
    let loader = Workspace { docs };
    if scenarios {
        super::super::load::check_one(&loader, path, &[]).ok()
    } else {
        compile::check(&loader, path, &[]).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "name \"Ninety-Nine\"\ncard 🂡: add 1\r\nend";
        let lines = LineIndex::new(text);
        // `🂡` is two UTF-16 units and four bytes.
        let colon = text.find(':').unwrap_or_default();
        assert_eq!(lines.position(text, colon), Position::new(1, 7));
        assert_eq!(lines.offset(text, Position::new(1, 7)), colon);
        // Inside the surrogate pair: the character's start.
        assert_eq!(lines.offset(text, Position::new(1, 6)), colon - 4);
        // Past the end of a line, and of the text.
        assert_eq!(lines.offset(text, Position::new(1, 99)), colon + 7);
        assert_eq!(lines.offset(text, Position::new(9, 0)), text.len());
        assert_eq!(lines.position(text, 9999), Position::new(2, 3));
    }

    #[test]
    fn lines_end_at_each_of_the_protocols_breaks() {
        let text = "a\nb\r\nc\rd\r\re";
        let lines = LineIndex::new(text);
        let spans: Vec<&str> = (0..6)
            .map(|i| {
                let s = lines.line_span(text, i);
                &text[s.start..s.end]
            })
            .collect();
        assert_eq!(spans, ["a", "b", "c", "d", "", "e"]);
        assert_eq!(lines.position(text, text.len()), Position::new(5, 1));
        assert_eq!(lines.offset(text, Position::new(3, 0)), 7);
        assert!(lines.ends_at_lone_cr(text, 2));
        assert!(!lines.ends_at_lone_cr(text, 1));
    }

    #[test]
    fn file_uris_and_paths() {
        let uri = Uri::from_str("file:///tmp/my%20rules/a.rules").expect("a URI");
        assert_eq!(path_of(&uri), "/tmp/my rules/a.rules");
        let back = uri_of("/tmp/my rules/a.rules").expect("a URI");
        assert_eq!(back.as_str(), "file:///tmp/my%20rules/a.rules");
        let untitled = Uri::from_str("untitled:Untitled-1").expect("a URI");
        assert_eq!(path_of(&untitled), "untitled:Untitled-1");
    }
}
