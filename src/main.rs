//! The `ninety` binary: everything is in the library's `app` stage.

fn main() -> std::process::ExitCode {
    ninety::app::cli::main()
}
