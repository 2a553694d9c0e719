//! Where ruleset and script files come from. Every file the compiler reads goes through a
//! [`Loader`]: the disk, the rulesets built into the binary, or memory (tests, the editor).

use std::collections::BTreeMap;
use std::path::Path;

use crate::lang::MAX_FILE_BYTES;

/// Reads the files of a ruleset: the ruleset itself, its parents, its script files.
pub trait Loader {
    /// The bytes of the file at `path`, or why it cannot be read.
    fn read(&self, path: &str) -> Result<Vec<u8>, String>;

    /// The names (without `.rules`) of the rulesets in the folder of `path`, for "did you
    /// mean".
    fn siblings(&self, _path: &str) -> Vec<String> {
        Vec::new()
    }

    /// A name for the file at `path` that is the same for every path to it (to find a cycle
    /// of `extends`).
    fn canonical(&self, path: &str) -> String {
        path.to_string()
    }
}

/// Reads ruleset files from the disk.
#[derive(Debug, Default, Clone, Copy)]
pub struct Disk;

impl Loader for Disk {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
        if meta.is_dir() {
            return Err("it is a folder".into());
        }
        if meta.len() > 64 * MAX_FILE_BYTES as u64 {
            // Do not even read a huge file into memory: report its size instead.
            return Ok(vec![b'#'; MAX_FILE_BYTES + 1]);
        }
        std::fs::read(path).map_err(|e| e.to_string())
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
}

// The rulesets that ship with ninety, built into the binary (see `build.rs`).
include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

/// Reads the shipped rulesets by name (`ninety-nine` or `rulesets/ninety-nine.rules`),
/// falling back to the disk.
#[derive(Debug, Default, Clone, Copy)]
pub struct Shipped;

impl Loader for Shipped {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        if let Ok(bytes) = Disk.read(path) {
            return Ok(bytes);
        }
        let stem = Path::new(path)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or(path);
        SHIPPED
            .iter()
            .find(|(name, _)| *name == stem)
            .map(|(_, text)| text.as_bytes().to_vec())
            .ok_or_else(|| format!("no ruleset file `{path}`, and no shipped ruleset of that name"))
    }

    fn siblings(&self, path: &str) -> Vec<String> {
        Disk.siblings(path)
    }

    fn canonical(&self, path: &str) -> String {
        Disk.canonical(path)
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
