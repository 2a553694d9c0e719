//! Loading a ruleset and its `extends` chain: each file read through the loader, decoded,
//! parsed, its script files read beside it; a cycle or a missing parent is a diagnostic.

use std::path::{Path, PathBuf};

use super::Layer;
use super::loader::Loader;
use crate::base::diag::{Diag, Source, did_you_mean};
use crate::base::{Code, Span, Spanned};
use crate::lang::ast::{self, StatementKind};
use crate::lang::{self, MAX_FILE_BYTES};

/// Parses `path` (whose bytes are `bytes`) and then its parents. Returns the layers, base
/// first, the ruleset itself last.
pub(super) fn load_chain(
    loader: &dyn Loader,
    path: &str,
    bytes: &[u8],
    diags: &mut Vec<Diag>,
) -> Vec<Layer> {
    let mut layers: Vec<Layer> = Vec::new();
    // The canonical name of every file loaded so far, to find a cycle.
    let mut chain: Vec<String> = Vec::new();
    let mut path = path.to_string();
    let mut bytes = bytes.to_vec();
    while let Some(layer) = load_file(loader, &path, &bytes, diags) {
        let extends = extends_of(&layer.file);
        chain.push(loader.canonical(&path));
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
        let parent_path = resolve(&path, &parent.node);
        if chain.contains(&loader.canonical(&parent_path)) {
            diags.push(cycle(&layers, &parent_path, parent.span, &source));
            break;
        }
        match loader.read(&parent_path) {
            Ok(b) => {
                bytes = b;
                path = parent_path;
            }
            Err(_) => {
                diags.push(missing_parent(loader, &path, &parent_path, parent, &source));
                break;
            }
        }
    }
    layers.reverse();
    layers
}

/// One file of the chain: decoded, parsed, its script files read. `None` when it is not text.
fn load_file(
    loader: &dyn Loader,
    path: &str,
    bytes: &[u8],
    diags: &mut Vec<Diag>,
) -> Option<Layer> {
    let text = match decode(bytes) {
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
    load_script_files(loader, path, &mut file, &source, diags);
    Some(Layer {
        path: path.to_string(),
        source,
        file,
    })
}

/// `script file "x.rhai"`: the code of a file beside the ruleset.
fn load_script_files(
    loader: &dyn Loader,
    path: &str,
    file: &mut ast::File,
    source: &Source,
    diags: &mut Vec<Diag>,
) {
    let names: Vec<Spanned<String>> = file
        .statements
        .iter()
        .filter_map(|st| match &st.kind {
            StatementKind::ScriptFile(name) => Some(name.clone()),
            _ => None,
        })
        .collect();
    for name in names {
        let script_path = match Path::new(path).parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.join(&name.node).display().to_string(),
            _ => name.node.clone(),
        };
        match loader
            .read(&script_path)
            .map(|b| String::from_utf8(b).map_err(|_| "it is not UTF-8 text".to_string()))
        {
            Ok(Ok(code)) => file.scripts.push(ast::ScriptSource {
                text: code,
                span: name.span,
                line: 1,
                path: Some(script_path),
            }),
            Ok(Err(why)) => diags.push(
                Diag::error(
                    Code::MissingScript,
                    name.span,
                    format!("the script file `{}` cannot be read: {why}", name.node),
                )
                .label("not a script")
                .hint("a script file is plain UTF-8 text")
                .in_source(source),
            ),
            Err(_) => diags.push(
                Diag::error(
                    Code::MissingScript,
                    name.span,
                    format!("there is no script file `{}` beside the ruleset", name.node),
                )
                .label("no such script")
                .hint("a script file lies beside the ruleset; its name is written with `.rhai`")
                .in_source(source),
            ),
        }
    }
}

/// The parents a file names, in order (one is allowed).
fn extends_of(file: &ast::File) -> Vec<Spanned<String>> {
    file.statements
        .iter()
        .filter_map(|s| match &s.kind {
            StatementKind::Extends(name) => Some(name.clone()),
            _ => None,
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
    source: &Source,
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
    .hint(hint)
    .in_source(source);
    match suggestion {
        Some(n) => diag.fix(parent.span, format!("\"{n}\"")),
        None => diag,
    }
}

fn decode(bytes: &[u8]) -> Result<String, String> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(format!(
            "this file is {} KB, far too big for a ruleset (at most {} KB)",
            bytes.len() / 1024,
            MAX_FILE_BYTES / 1024
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
