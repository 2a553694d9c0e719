//! Writing a file whole or not at all (a saved game, a report page): a reader never sees half
//! a file, and what is at the path is replaced only when it is a regular file.

use std::io::Write as _;
use std::path::Path;

/// Whether `path` can take a file: it names a file (not a folder), in a folder that exists,
/// and what is there now, if anything, is a regular file (never a link, a device, a folder).
/// `what` names the file in the reasons (`a save`, `a report`). Checked before long work, so
/// a bad path fails at once: the folder must take a new file beside it, written and synced
/// (a read-only folder, one without write permission, a full disk fail here).
/// [`write_atomically`] checks again.
pub(crate) fn check_target(path: &Path, what: &str) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            return Err(format!(
                "it is a symbolic link, and {what} replaces only a file"
            ));
        }
        Ok(m) if m.is_dir() => {
            return Err(format!(
                "it is a folder; give {what} a file name, such as `{}`",
                path.join("report.html").display()
            ));
        }
        Ok(m) if !m.is_file() => {
            return Err("it is not a regular file".into());
        }
        _ => {}
    }
    if path.file_name().is_none() {
        return Err(format!("{what} needs a file name"));
    }
    let dir = folder(path);
    if !dir.is_dir() {
        return Err(format!("there is no folder `{}`", dir.display()));
    }
    // The folder must take a new file: one is made beside the target, written, synced and
    // removed (a folder that cannot be written, or a full disk, fails here).
    let probe = temporary(path)?;
    let _writing = writing();
    let made = create(&probe, 0o600).and_then(|mut f| {
        f.write_all(b"\n")?;
        f.sync_all()
    });
    let _ = std::fs::remove_file(&probe);
    made.map_err(|e| e.to_string())
}

/// Held while a file is written: Ctrl-C, where it ends the process (`play`), waits for it
/// ([`exit_after_writes`]), so no temporary file is left behind.
static WRITING: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn writing() -> std::sync::MutexGuard<'static, ()> {
    WRITING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Ends the process with `code` once no file is being written (a write under way is
/// finished, its temporary file renamed or removed first): what Ctrl-C does where it stops
/// a command at once.
#[cfg(feature = "cli")]
pub(crate) fn exit_after_writes(code: i32) -> ! {
    let _writing = writing();
    std::process::exit(code)
}

/// A new temporary file's name beside `path`, that no one can guess: `.NAME.HEX.tmp`.
fn temporary(path: &Path) -> Result<std::path::PathBuf, String> {
    use std::hash::BuildHasher;
    let name = path
        .file_name()
        .ok_or_else(|| "a file name is needed".to_string())?
        .to_string_lossy();
    let unguessable = std::collections::hash_map::RandomState::new()
        .hash_one((std::process::id(), std::time::SystemTime::now()));
    Ok(folder(path).join(format!(".{name}.{unguessable:016x}.tmp")))
}

/// Creates a file that is not there yet (never opens one that is), with the permissions
/// `mode` on Unix (as the process's umask allows).
fn create(path: &Path, mode: u32) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(mode);
    }
    #[cfg(not(unix))]
    let _ = mode;
    options.open(path)
}

/// The folder a file is written in.
fn folder(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// `--report FILE`: the page written whole (or not at all), and `wrote FILE` said on `err`,
/// so a page does not appear without a word; why it could not be written, in words.
pub(crate) fn write_report(
    path: &str,
    page: &[u8],
    err: &mut dyn std::io::Write,
) -> Result<(), String> {
    write_atomically(Path::new(path), page, "a report")
        .map_err(|e| format!("cannot write the report `{path}`: {e}"))?;
    let _ = writeln!(err, "wrote {}", crate::base::text::escape(path));
    Ok(())
}

/// Writes a file whole or not at all: a new temporary file beside it (created, never
/// opened if it exists, under a name no one can guess), synced, then renamed over it. What
/// is at `path` is replaced only when it is a regular file: never a link, a device, a
/// folder. `what` names the file in the reasons (`a save`, `a report`).
pub(crate) fn write_atomically(path: &Path, bytes: &[u8], what: &str) -> Result<(), String> {
    write_atomically_as(path, bytes, what, 0o666)
}

/// [`write_atomically`], the file made with the permissions `mode` (on Unix, as the process's
/// umask allows) before it takes its name.
pub(crate) fn write_atomically_as(
    path: &Path,
    bytes: &[u8],
    what: &str,
    mode: u32,
) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            return Err(format!(
                "it is a symbolic link, and {what} replaces only a file"
            ));
        }
        Ok(m) if !m.is_file() => {
            return Err("it is not a regular file".into());
        }
        _ => {}
    }
    let dir = folder(path);
    if path.file_name().is_none() {
        return Err(format!("{what} needs a file name"));
    }
    let tmp = temporary(path)?;
    let _writing = writing();
    let written = create(&tmp, mode)
        .and_then(|mut f| {
            f.write_all(bytes)?;
            f.sync_all()
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e.to_string());
    }
    // The rename itself, on the disk.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_nothing_else_is() {
        let dir = std::env::temp_dir().join(format!("ninety-atomic-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder");
        let file = dir.join("page.html");
        assert_eq!(check_target(&file, "a report"), Ok(()));
        write_atomically(&file, b"one", "a report").expect("written");
        write_atomically(&file, b"two", "a report").expect("written again");
        assert_eq!(std::fs::read(&file).expect("read"), b"two");
        let names: Vec<_> = std::fs::read_dir(&dir).expect("listed").collect();
        assert_eq!(names.len(), 1, "no temporary file left behind");
        let folder_err = check_target(&dir, "a report").expect_err("a folder");
        assert!(folder_err.contains("it is a folder"), "{folder_err}");
        assert!(write_atomically(&dir, b"x", "a report").is_err());
        let missing = check_target(&dir.join("nowhere/page.html"), "a report");
        assert!(missing.is_err_and(|e| e.contains("there is no folder")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
