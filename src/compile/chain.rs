//! Loading a ruleset and its `extends` chain: each file read through the loader, decoded,
//! parsed, its script files read beside it; a cycle or a missing parent is a diagnostic.
//!
//! Where a file may come from: a ruleset read from a folder reads its parents and scripts
//! from that folder's tree only (never by a full path, never through `..` out of it, never
//! through a symbolic link leading out of it). `extends "NAME"` finds `NAME.rules` beside the
//! file, or else the shipped ruleset of that name, from any folder; a shipped ruleset's
//! parents are shipped ones. The chain is at most [`EXTENDS_DEPTH`] files long.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::Layer;
use super::loader::{Loader, shipped};
use crate::base::diag::{Diag, Source, did_you_mean};
use crate::base::limits::{EXTENDS_DEPTH, SCRIPT_BYTES, SCRIPT_FILE_BYTES, grouped};
use crate::base::{Code, Span, Spanned};
use crate::lang::ast::{self, StatementKind};
use crate::lang::{self, MAX_FILE_BYTES};

/// Where a file of the chain was read from, which says where its parents and scripts may be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Home {
    /// From the loader: parents and scripts come from the tree of `root`, the folder of the
    /// ruleset being checked (`""` for the current folder).
    Files { root: String },
    /// Built into the binary: parents are shipped rulesets too.
    Shipped,
}

/// A file of the chain, read but not yet parsed.
struct Read {
    path: String,
    bytes: Vec<u8>,
    home: Home,
}

/// Parses `path` (whose bytes are `bytes`) and then its parents. Returns the layers, base
/// first, the ruleset itself last.
pub(super) fn load_chain(
    loader: &dyn Loader,
    path: &str,
    bytes: &[u8],
    home: Home,
    diags: &mut Vec<Diag>,
) -> Vec<Layer> {
    let mut layers: Vec<Layer> = Vec::new();
    // Every file loaded so far, by a name the same for every path to it: a cycle is found
    // in one look-up a file.
    let mut seen: HashSet<String> = HashSet::new();
    let mut next = Read {
        path: path.to_string(),
        bytes: bytes.to_vec(),
        home,
    };
    // The bytes of script the chain holds so far: a line naming a big script file over and
    // over cannot make the compiler hold more than `SCRIPT_BYTES`.
    let mut scripts = 0usize;
    while let Some(layer) = load_file(loader, &next, &mut scripts, diags) {
        seen.insert(identity(loader, &next.home, &next.path));
        let extends = extends_of(&layer.file);
        if let Some(second) = extends.get(1) {
            diags.push(
                Diag::error(Code::ExtendsTwice, second.span, "a ruleset can extend only one other")
                    .also(extends[0].span, "first `extends`")
                    .hint("keep one `extends` line; a chain of variants is fine (each extends the one before)")
                    .in_source(&layer.source),
            );
        }
        let source = layer.source.clone();
        layers.push(layer);
        let Some(parent) = extends.first() else {
            break;
        };
        if layers.len() >= EXTENDS_DEPTH {
            diags.push(too_deep(&layers, parent.span, &source));
            break;
        }
        match parent_of(loader, &next, parent) {
            Ok(read) => {
                if seen.contains(&identity(loader, &read.home, &read.path)) {
                    diags.push(cycle(&layers, &read.path, parent.span, &source));
                    break;
                }
                next = read;
            }
            Err(d) => {
                diags.push(d.in_source(&source));
                break;
            }
        }
    }
    layers.reverse();
    layers
}

/// The name of a file that is the same for every path to it.
fn identity(loader: &dyn Loader, home: &Home, path: &str) -> String {
    match home {
        Home::Files { .. } => loader.canonical(path),
        Home::Shipped => format!("shipped:{path}"),
    }
}

/// Whether a name names no folder: `ninety-nine`, `ninety-nine.rules`.
fn bare(name: &str) -> bool {
    !name.contains(['/', '\\'])
}

/// The parent `extends "NAME"` names, read; or why it cannot be.
fn parent_of(loader: &dyn Loader, child: &Read, name: &Spanned<String>) -> Result<Read, Diag> {
    let stem = name.node.strip_suffix(".rules").unwrap_or(&name.node);
    let shipped_parent = || {
        (bare(&name.node))
            .then(|| shipped(stem))
            .flatten()
            .map(|text| Read {
                path: stem.to_string(),
                bytes: text.as_bytes().to_vec(),
                home: Home::Shipped,
            })
    };
    let Home::Files { root } = &child.home else {
        return shipped_parent().ok_or_else(|| {
            Diag::error(
                Code::MissingParent,
                name.span,
                format!(
                    "`{}` is a shipped ruleset, and no shipped ruleset is named `{}`",
                    child.path, name.node
                ),
            )
            .label("no such ruleset")
            .hint("a shipped ruleset extends only shipped rulesets")
        });
    };
    let file = PathBuf::from(&name.node);
    if file.has_root() || file.is_absolute() || name.node.contains(':') {
        return Err(outside(name, "extends", root));
    }
    if file.extension().is_some_and(|x| x != "rules") {
        return Err(Diag::error(
            Code::MissingParent,
            name.span,
            format!(
                "`{}` is not a ruleset: a ruleset's name ends in `.rules`",
                name.node
            ),
        )
        .label("not a ruleset")
        .hint("name the parent without `.rules`: `extends \"ninety-nine\"`"));
    }
    let candidate = resolve(&child.path, &name.node);
    if !loader.inside(root, &candidate) {
        return Err(outside(name, "extends", root));
    }
    if loader.exists(&candidate) {
        return match loader.read(&candidate) {
            Ok(bytes) => Ok(Read {
                path: candidate,
                bytes,
                home: child.home.clone(),
            }),
            Err(why) => Err(Diag::error(
                Code::MissingParent,
                name.span,
                format!(
                    "the parent `{}` cannot be read: {why}",
                    file_name(&candidate)
                ),
            )
            .label("unreadable")
            .hint("a parent is a plain `.rules` text file")),
        };
    }
    shipped_parent().ok_or_else(|| missing_parent(loader, &child.path, &candidate, name))
}

/// A file named outside the folder of the ruleset: refused, with how to share a base.
fn outside(name: &Spanned<String>, what: &str, root: &str) -> Diag {
    let folder = if root.is_empty() { "." } else { root };
    Diag::error(
        Code::FileOutside,
        name.span,
        format!(
            "`{what} \"{}\"` names a file outside this ruleset's folder (`{folder}`)",
            name.node
        ),
    )
    .label("outside the folder")
    .hint(if what == "extends" {
        "a ruleset reads its parents from its own folder or a folder inside it, or a shipped ruleset by name (`extends \"ninety-nine\"`): copy the base beside it to share it"
    } else {
        "a script file lies in the ruleset's folder or a folder inside it"
    })
}

/// The chain is longer than [`EXTENDS_DEPTH`].
fn too_deep(layers: &[Layer], span: Span, source: &Source) -> Diag {
    let (root_source, root_span) = layers
        .first()
        .and_then(|l| {
            extends_of(&l.file)
                .first()
                .map(|n| (l.source.clone(), n.span))
        })
        .unwrap_or((source.clone(), span));
    Diag::error(
        Code::ExtendsDepth,
        root_span,
        format!("this chain of `extends` goes deeper than {EXTENDS_DEPTH} rulesets"),
    )
    .label("the chain starts here")
    .hint(format!(
        "a variant may stand on at most {} others; write the rules of the middle ones into one file",
        EXTENDS_DEPTH - 1
    ))
    .in_source(&root_source)
}

/// One file of the chain: decoded, parsed, its script files read (`scripts`: the bytes of
/// script the chain held before it). `None` when it is not text.
fn load_file(
    loader: &dyn Loader,
    read: &Read,
    scripts: &mut usize,
    diags: &mut Vec<Diag>,
) -> Option<Layer> {
    let path = read.path.as_str();
    let text = match decode(&read.bytes).and_then(line_endings) {
        Ok(text) => text,
        Err(message) => {
            let source = Source::new(path, String::new());
            diags.push(
                Diag::error(
                    Code::NotText,
                    Span::default(),
                    format!("`{}`: {message}", file_name(path)),
                )
                .label("this file")
                .hint("a ruleset is a plain text file (UTF-8) of lines like `players 2 to 5`")
                .in_source(&source),
            );
            return None;
        }
    };
    let (mut file, parse_diags) = lang::parse(&text);
    let source = Source::new(path, text);
    diags.extend(parse_diags.into_iter().map(|d| d.in_source(&source)));
    let mut kept = Vec::new();
    for inline in std::mem::take(&mut file.scripts) {
        if *scripts > SCRIPT_BYTES {
            continue;
        }
        match spend(scripts, inline.text.len(), inline.span) {
            Ok(()) => kept.push(inline),
            Err(d) => diags.push(d.in_source(&source)),
        }
    }
    file.scripts = kept;
    load_script_files(loader, read, &mut file, &source, scripts, diags);
    Some(Layer {
        path: path.to_string(),
        source,
        file,
    })
}

/// Counts `bytes` more of script in the chain, or says they are past [`SCRIPT_BYTES`]
/// (once: then the chain's later scripts are dropped unread, unsaid).
fn spend(scripts: &mut usize, bytes: usize, span: Span) -> Result<(), Diag> {
    if scripts.saturating_add(bytes) > SCRIPT_BYTES {
        // Marks the total as passed: the rest of the chain's scripts are not read.
        *scripts = SCRIPT_BYTES + 1;
        return Err(past_total(span));
    }
    *scripts += bytes;
    Ok(())
}

/// A script past [`SCRIPT_BYTES`] of script in the chain.
fn past_total(span: Span) -> Diag {
    Diag::error(
            Code::TooMany,
            span,
            format!(
                "this script takes the scripts of the ruleset past {} KB in all, the most a ruleset's chain may hold",
                grouped(SCRIPT_BYTES as u64 / 1024)
            ),
        )
    .label("one script too many")
    .hint("a script file is read each time it is named: name it once, and keep the scripts to what the rules need")
}

/// A text whose lines end in a carriage return alone (as old Macs wrote them) reads as one
/// long line: said plainly, rather than as what that line fails to parse as.
fn line_endings(text: String) -> Result<String, String> {
    if !text.contains('\n') && text.trim_end_matches('\r').contains('\r') {
        return Err("its lines end in a carriage return (CR) alone, as old Macs wrote them; ninety reads lines that end in LF or CR LF: save it with those line endings".into());
    }
    Ok(text)
}

/// `script file "x.rhai"`: the code of a file in the ruleset's folder tree.
fn load_script_files(
    loader: &dyn Loader,
    read: &Read,
    file: &mut ast::File,
    source: &Source,
    scripts: &mut usize,
    diags: &mut Vec<Diag>,
) {
    let names: Vec<Spanned<String>> = file
        .statements
        .iter()
        .filter_map(|st| {
            if let StatementKind::ScriptFile(name) = &st.kind {
                Some(name.clone())
            } else {
                None
            }
        })
        .collect();
    for name in names {
        // Past the total, one diagnostic, and no further file is even read.
        if *scripts > SCRIPT_BYTES {
            continue;
        }
        match script_file(loader, read, &name)
            .and_then(|(path, code)| spend(scripts, code.len(), name.span).map(|()| (path, code)))
        {
            Ok((script_path, code)) => file.scripts.push(ast::ScriptSource {
                text: code,
                span: name.span,
                line: 1,
                path: Some(script_path),
            }),
            Err(d) => diags.push(d.in_source(source)),
        }
    }
}

/// The path and code of the script file `name` names, or why it cannot be read.
fn script_file(
    loader: &dyn Loader,
    read: &Read,
    name: &Spanned<String>,
) -> Result<(String, String), Diag> {
    let Home::Files { root } = &read.home else {
        return Err(Diag::error(
            Code::MissingScript,
            name.span,
            "a shipped ruleset has no script files",
        )
        .label("no such script"));
    };
    let file = Path::new(&name.node);
    if file.has_root() || file.is_absolute() || name.node.contains(':') {
        return Err(outside(name, "script file", root));
    }
    if Path::new(&name.node)
        .file_name()
        .is_some_and(|f| f == ".rhai")
    {
        return Err(Diag::error(
            Code::MissingScript,
            name.span,
            format!("`{}` has no name before `.rhai`", name.node),
        )
        .label("no name")
        .hint("a script file is named like `house.rhai`, in the ruleset's folder"));
    }
    if !name.node.ends_with(".rhai") {
        return Err(Diag::error(
            Code::MissingScript,
            name.span,
            format!(
                "`{}` is not a script file: its name must end in `.rhai`",
                name.node
            ),
        )
        .label("not a script")
        .hint(
            "a script file is a `.rhai` file in the ruleset's folder: `script file \"house.rhai\"`",
        ));
    }
    let script_path = match Path::new(&read.path).parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(&name.node).display().to_string(),
        _ => name.node.clone(),
    };
    if !loader.inside(root, &script_path) {
        return Err(outside(name, "script file", root));
    }
    let unreadable = |why: String, label: &str| {
        Diag::error(
            Code::MissingScript,
            name.span,
            format!("the script file `{}` cannot be read: {why}", name.node),
        )
        .label(label)
        .hint("a script file is plain UTF-8 text")
    };
    if !loader.exists(&script_path) {
        return Err(Diag::error(
            Code::MissingScript,
            name.span,
            format!("there is no script file `{}` beside the ruleset", name.node),
        )
        .label("no such script")
        .hint("a script file lies beside the ruleset; its name is written with `.rhai`"));
    }
    let bytes = loader
        .read(&script_path)
        .map_err(|why| unreadable(why, "unreadable"))?;
    if bytes.len() > SCRIPT_FILE_BYTES {
        let why = format!(
            "it holds more than the {} KB a script file may",
            grouped(SCRIPT_FILE_BYTES as u64 / 1024)
        );
        return Err(unreadable(why, "too big"));
    }
    // A byte-order mark some editors write is not part of the code, as in a ruleset.
    let bytes = bytes
        .strip_prefix(&[0xEF, 0xBB, 0xBF])
        .map_or(bytes.clone(), <[u8]>::to_vec);
    let code = String::from_utf8(bytes)
        .map_err(|_| unreadable("it is not UTF-8 text".into(), "not a script"))?;
    Ok((script_path, code))
}

/// The parents a file names, in order (one is allowed).
fn extends_of(file: &ast::File) -> Vec<Spanned<String>> {
    file.statements
        .iter()
        .filter_map(|s| {
            if let StatementKind::Extends(name) = &s.kind {
                Some(name.clone())
            } else {
                None
            }
        })
        .collect()
}

/// The files extend each other in a circle: said at the checked file's own `extends` line,
/// since that is the file the designer asked about.
fn cycle(layers: &[Layer], parent_path: &str, parent_span: Span, source: &Source) -> Diag {
    let names: Vec<String> = layers
        .iter()
        .map(|l| file_name(&l.path))
        .chain([file_name(parent_path)])
        .collect();
    let (root_source, root_span) = layers
        .first()
        .and_then(|l| {
            extends_of(&l.file)
                .first()
                .map(|n| (l.source.clone(), n.span))
        })
        .unwrap_or((source.clone(), parent_span));
    Diag::error(
        Code::ExtendsCycle,
        root_span,
        format!(
            "these rulesets extend each other in a circle: {}",
            names.join(" → ")
        ),
    )
    .label("the circle starts here")
    .hint("one of them must stand on its own: remove its `extends` line")
    .in_source(&root_source)
}

fn missing_parent(
    loader: &dyn Loader,
    path: &str,
    parent_path: &str,
    parent: &Spanned<String>,
) -> Diag {
    let siblings = loader.siblings(path);
    let suggestion = did_you_mean(&parent.node, siblings.iter().map(String::as_str))
        .filter(|n| *n != parent.node);
    let hint = match suggestion {
        Some(n) => format!("did you mean `extends \"{n}\"`?"),
        None => "the parent is a `.rules` file in the same folder, named without `.rules`".into(),
    };
    let diag = Diag::error(
        Code::MissingParent,
        parent.span,
        format!(
            "`{}` extends `{}`, but there is no ruleset `{}`",
            file_name(path),
            parent.node,
            file_name(parent_path)
        ),
    )
    .label("no such ruleset")
    .hint(hint);
    match suggestion {
        Some(n) => diag.fix(parent.span, format!("\"{n}\"")),
        None => diag,
    }
}

fn decode(bytes: &[u8]) -> Result<String, String> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(format!(
            "this file holds more than {} KB: far too big for a ruleset",
            grouped(MAX_FILE_BYTES as u64 / 1024)
        ));
    }
    if bytes.contains(&0) {
        return Err("this is a binary file, not a ruleset".into());
    }
    // A byte-order mark some editors write is not part of the text.
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        let good = &bytes[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|b| **b == b'\n').count() + 1;
        let column = String::from_utf8_lossy(good.rsplit(|b| *b == b'\n').next().unwrap_or(good)).chars().count() + 1;
        format!("this file is not UTF-8 text: a byte at line {line}, column {column} is not a letter of UTF-8")
    })
}

/// The file a parent name points at: a sibling `NAME.rules`.
fn resolve(from: &str, name: &str) -> String {
    let mut file = PathBuf::from(name);
    if file.extension().is_none() {
        file.set_extension("rules");
    }
    match Path::new(from).parent() {
        Some(dir) if !dir.as_os_str().is_empty() && file.is_relative() => {
            dir.join(file).display().to_string()
        }
        _ => file.display().to_string(),
    }
}

/// The last part of a path: `ninety-nine.rules`.
pub(super) fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or(path.to_string(), |n| n.to_string_lossy().into_owned())
}
