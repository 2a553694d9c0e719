fn main() {
    let path = std::env::args().nth(1).expect("path");
    let text = std::fs::read_to_string(&path).expect("read");
    let (file, diags) = ninety::syntax::parse(&text);
    let src = ninety::diag::Source::new(path, text);
    for d in diags {
        eprintln!("{}", d.in_source(&src).render_plain(100));
    }
    println!("{} statements, {} scenarios", file.statements.len(), file.scenarios.len());
}
