//! The wasm module's one stack: big enough for the deepest value a script may build on the
//! native stack that `stacker` grows (`SCRIPT_STACK_BYTES`, 256 MB, is the native limit; a
//! browser's worker gets 64 MB, and a call past it traps: the page says so and starts the
//! worker again). The stack comes first in memory, so running past it is a trap, never a
//! write over the heap.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_FAMILY").is_ok_and(|f| f.split(',').any(|x| x == "wasm")) {
        println!("cargo:rustc-link-arg-cdylib=-zstack-size={}", 64 << 20);
    }
}
