//! Where ruleset and script files come from. Every file the compiler reads goes through a
//! [`Loader`]: the disk, the rulesets built into the binary, or memory (tests, the editor).
//!
//! The disk reads only regular files (never a folder, a named pipe or a device), never more
//! than a file's cap plus one byte whatever size the file claims, and says whether a path lies
//! inside a folder's tree, following symbolic links. [`read_capped`] is the one way ninety
//! reads any file a stranger may have written: rulesets, scripts, saves, moves, shards.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use crate::base::limits::{RULESET_BYTES, SCRIPT_FILE_BYTES, grouped};

/// Reads the files of a ruleset: the ruleset itself, its parents, its script files.
pub trait Loader {
    /// The bytes of the file at `path`, or why it cannot be read.
    fn read(&self, path: &str) -> Result<Vec<u8>, String>;

    /// Whether there is a file (or anything else) at `path`: a parent that is not there may
    /// be a shipped ruleset, one that is there but cannot be read is an error.
    fn exists(&self, path: &str) -> bool {
        self.read(path).is_ok()
    }

    /// The names (without `.rules`) of the rulesets in the folder of `path`, for "did you
    /// mean".
    fn siblings(&self, _path: &str) -> Vec<String> {
        Vec::new()
    }

    /// A name for the file at `path` that is the same for every path to it (to find a cycle
    /// of `extends`).
    fn canonical(&self, path: &str) -> String {
        normalize(Path::new(path)).map_or_else(|| path.to_string(), |p| p.display().to_string())
    }

    /// Whether `path` lies in the tree of the folder `root` (`""` is the current folder):
    /// where a ruleset's parents and scripts may be read from.
    fn inside(&self, root: &str, path: &str) -> bool {
        lexically_inside(Path::new(root), Path::new(path))
    }
}

/// Why a file was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileError {
    /// The system's reason: no such file, permission denied...
    Io(String),
    /// It is not a regular file: `a folder`, `a named pipe (FIFO)`, `a device`...
    NotAFile(&'static str),
    /// It holds more than `cap` bytes (`size` when the system says how many).
    TooBig { cap: usize, size: Option<u64> },
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Io(e) => f.write_str(e),
            FileError::NotAFile(what) => write!(f, "it is {what}, not a regular file"),
            FileError::TooBig {
                cap,
                size: Some(size),
            } if *size > *cap as u64 => write!(
                f,
                "it holds {} KB, more than the {} KB allowed",
                grouped(size.div_ceil(1024)),
                grouped((*cap as u64).div_ceil(1024))
            ),
            FileError::TooBig { cap, .. } => write!(
                f,
                "it holds more than the {} KB allowed",
                grouped((*cap as u64).div_ceil(1024))
            ),
        }
    }
}

/// What kind of thing a path is, when it is not a regular file.
fn not_a_file(kind: std::fs::FileType) -> Option<&'static str> {
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a named pipe (FIFO)");
        }
        if kind.is_char_device() || kind.is_block_device() {
            return Some("a device");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a file")
}

/// Reads the regular file at `path`, at most `cap` bytes. Whatever size the file claims, at
/// most `cap + 1` bytes are read: a device or a file that grows cannot make it read more. A
/// folder, a named pipe or a device is refused without waiting on it.
pub fn read_capped(path: &Path, cap: usize) -> Result<Vec<u8>, FileError> {
    let (bytes, size) = read_upto(path, cap)?;
    if bytes.len() > cap {
        return Err(FileError::TooBig {
            cap,
            size: Some(size),
        });
    }
    Ok(bytes)
}

/// The first `cap + 1` bytes of the regular file at `path` (all of it when it is smaller),
/// and the size the system gives it.
fn read_upto(path: &Path, cap: usize) -> Result<(Vec<u8>, u64), FileError> {
    let meta = std::fs::metadata(path).map_err(|e| FileError::Io(e.to_string()))?;
    if let Some(what) = not_a_file(meta.file_type()) {
        return Err(FileError::NotAFile(what));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        // Should the file be swapped for a named pipe after the check, opening it does not
        // wait for a writer.
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options
        .open(path)
        .map_err(|e| FileError::Io(e.to_string()))?;
    let meta = file.metadata().map_err(|e| FileError::Io(e.to_string()))?;
    if let Some(what) = not_a_file(meta.file_type()) {
        return Err(FileError::NotAFile(what));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(cap).min(cap) + 1);
    file.take(cap as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::Io(e.to_string()))?;
    Ok((bytes, meta.len()))
}

/// A path with `.` and `..` worked out without asking the disk; `None` when `..` climbs
/// above where a relative path starts.
pub fn normalize(path: &Path) -> Option<PathBuf> {
    let (up, out) = path_from(path);
    (up == 0).then_some(out)
}

/// Whether `path` lies in the tree of `root`, by their names alone.
pub fn lexically_inside(root: &Path, path: &Path) -> bool {
    if root.is_absolute() != path.is_absolute() {
        return false;
    }
    // A relative root may itself start above where the path starts (`../rules`, for a
    // ruleset given as `../rules/v.rules`): the `..` it starts with are kept on both sides.
    // A path that climbs further than the root does is outside it, whatever follows.
    let ((up_root, root), (up_path, path)) = (path_from(root), path_from(path));
    up_root == up_path && path.starts_with(root)
}

/// [`normalize`], keeping the `..` a relative path starts with instead of refusing them:
/// how many, and the path from there.
fn path_from(path: &Path) -> (usize, PathBuf) {
    let mut up = 0usize;
    let mut out = PathBuf::new();
    let mut depth = 0usize;
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir if depth == 0 => {
                if !path.is_absolute() {
                    up += 1;
                }
            }
            Component::ParentDir => {
                out.pop();
                depth -= 1;
            }
            Component::Normal(p) => {
                out.push(p);
                depth += 1;
            }
            Component::RootDir | Component::Prefix(_) => out.push(part.as_os_str()),
        }
    }
    (up, out)
}

/// The cap of a file the loader reads, by its extension: a ruleset, or a script. `None` for
/// any other file.
fn cap_of(path: &str) -> Option<usize> {
    match Path::new(path).extension().and_then(|x| x.to_str()) {
        Some("rules") => Some(RULESET_BYTES),
        Some("rhai") => Some(SCRIPT_FILE_BYTES),
        _ => None,
    }
}

/// Reads ruleset files from the disk.
#[derive(Debug, Default, Clone, Copy)]
pub struct Disk;

impl Loader for Disk {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        let Some(cap) = cap_of(path) else {
            if let Ok(meta) = std::fs::metadata(path)
                && let Some(what) = not_a_file(meta.file_type())
            {
                return Err(FileError::NotAFile(what).to_string());
            }
            return Err(
                "a ruleset's name ends in `.rules`, and a script's in `.rhai`; this is neither"
                    .into(),
            );
        };
        // A file past its cap comes back as its first `cap + 1` bytes: the checker says it is
        // too big as a diagnostic on the file.
        read_upto(Path::new(path), cap)
            .map(|(bytes, _)| bytes)
            .map_err(|e| e.to_string())
    }

    fn exists(&self, path: &str) -> bool {
        std::fs::symlink_metadata(path).is_ok()
    }

    fn siblings(&self, path: &str) -> Vec<String> {
        let dir = Path::new(path)
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .take(10_000)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "rules"))
                    .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }

    fn canonical(&self, path: &str) -> String {
        std::fs::canonicalize(path).map_or_else(|_| path.to_string(), |p| p.display().to_string())
    }

    fn inside(&self, root: &str, path: &str) -> bool {
        // By name first, then where symbolic links lead.
        let root_path = if root.is_empty() {
            Path::new(".")
        } else {
            Path::new(root)
        };
        let lexical = lexically_inside(Path::new(root), Path::new(path));
        let Ok(real_root) = std::fs::canonicalize(root_path) else {
            return lexical;
        };
        let real = match std::fs::canonicalize(path) {
            Ok(p) => p,
            // A file that does not exist: where its folder is.
            Err(_) => match Path::new(path)
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .map_or_else(|| std::fs::canonicalize("."), std::fs::canonicalize)
            {
                Ok(dir) => dir.join(Path::new(path).file_name().unwrap_or_default()),
                Err(_) => return lexical,
            },
        };
        lexical && real.starts_with(real_root)
    }
}

// The rulesets that ship with ninety, built into the binary (see `build.rs`).
include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

/// The text of the shipped ruleset named `name` (`ninety-nine`), if there is one.
pub fn shipped(name: &str) -> Option<&'static str> {
    SHIPPED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// Reads the shipped rulesets by name (`ninety-nine` or `rulesets/ninety-nine.rules`),
/// falling back to the disk.
#[derive(Debug, Default, Clone, Copy)]
pub struct Shipped;

impl Loader for Shipped {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        match Disk.read(path) {
            Ok(bytes) => Ok(bytes),
            // There is something at that path, but it is no ruleset: say why.
            Err(e) if Path::new(path).exists() => Err(e),
            Err(_) => Path::new(path)
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(shipped)
                .map(|text| text.as_bytes().to_vec())
                .ok_or_else(|| {
                    format!("no ruleset file `{path}`, and no shipped ruleset of that name")
                }),
        }
    }

    fn exists(&self, path: &str) -> bool {
        Disk.exists(path)
    }

    fn siblings(&self, path: &str) -> Vec<String> {
        Disk.siblings(path)
    }

    fn canonical(&self, path: &str) -> String {
        Disk.canonical(path)
    }

    fn inside(&self, root: &str, path: &str) -> bool {
        Disk.inside(root, path)
    }
}

/// Files held in memory, by path: tests, and the editor's unsaved buffers.
#[derive(Debug, Default, Clone)]
pub struct Memory {
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Memory {
    pub fn new() -> Memory {
        Memory::default()
    }

    /// Adds (or replaces) a file.
    pub fn insert(&mut self, path: impl Into<String>, text: impl Into<Vec<u8>>) {
        self.files.insert(path.into(), text.into());
    }
}

impl Loader for Memory {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        self.files
            .get(path)
            .cloned()
            .ok_or_else(|| "no such file".to_string())
    }

    fn exists(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }

    fn siblings(&self, path: &str) -> Vec<String> {
        let dir = Path::new(path).parent();
        self.files
            .keys()
            .map(Path::new)
            .filter(|p| p.parent() == dir && p.extension().is_some_and(|x| x == "rules"))
            .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_worked_out_by_name() {
        assert_eq!(
            normalize(Path::new("a/./b/../c.rules")),
            Some(PathBuf::from("a/c.rules"))
        );
        assert_eq!(normalize(Path::new("../x.rules")), None);
        assert!(lexically_inside(
            Path::new("rules"),
            Path::new("rules/sub/x.rules")
        ));
        assert!(lexically_inside(Path::new(""), Path::new("x.rules")));
        assert!(!lexically_inside(
            Path::new("rules"),
            Path::new("rules/../x.rules")
        ));
        assert!(!lexically_inside(
            Path::new("rules"),
            Path::new("/etc/x.rules")
        ));
        assert!(!lexically_inside(Path::new(""), Path::new("../x.rules")));
        // A ruleset given by a path that starts above the working folder: its own folder
        // holds its parents, and nothing climbs out of that folder.
        assert!(lexically_inside(
            Path::new("../rules"),
            Path::new("../rules/ninety-nine.rules")
        ));
        assert!(lexically_inside(
            Path::new("../../a/rules"),
            Path::new("../../a/rules/sub/../x.rules")
        ));
        assert!(!lexically_inside(
            Path::new("../rules"),
            Path::new("../rules/../x.rules")
        ));
        assert!(!lexically_inside(
            Path::new("../rules"),
            Path::new("../../x.rules")
        ));
        assert!(!lexically_inside(
            Path::new("../rules"),
            Path::new("rules/x.rules")
        ));
    }

    #[test]
    fn a_folder_and_a_device_are_not_files() {
        assert_eq!(
            read_capped(Path::new("."), 10),
            Err(FileError::NotAFile("a folder"))
        );
        #[cfg(unix)]
        assert_eq!(
            read_capped(Path::new("/dev/zero"), 10),
            Err(FileError::NotAFile("a device"))
        );
    }
}
