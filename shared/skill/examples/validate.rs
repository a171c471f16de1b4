//! `cargo run -p adas-skill --example validate FILE...`: prints diagnostics.
fn main() {
    for path in std::env::args().skip(1) {
        let source = std::fs::read_to_string(&path).expect("read");
        let loaded = adas_skill::load_detected(&source, Some(&path));
        for diagnostic in &loaded.diagnostics {
            println!("{}", diagnostic.render(&path));
        }
        println!(
            "{path}: errors={} compiled={}",
            loaded.has_errors(),
            loaded.compiled.is_some()
        );
    }
}
