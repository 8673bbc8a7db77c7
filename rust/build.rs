//! The versions the server says it was built with: rustc's, and the crates' from Cargo.lock.
use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let output = Command::new(rustc).arg("--version").output().expect("rustc --version");
    println!("cargo:rustc-env=RUSTC_VERSION={}", String::from_utf8_lossy(&output.stdout).trim());
    let lock = std::fs::read_to_string("Cargo.lock").expect("Cargo.lock");
    let crates: Vec<String> = ["axum", "hyper", "sqlx", "tokio"].iter().map(|name| {
        let entry = format!("name = \"{name}\"\nversion = \"");
        let version = lock.split_once(&entry).and_then(|(_, rest)| rest.split_once('"')).map_or("?", |(v, _)| v);
        format!("{name} {version}")
    }).collect();
    println!("cargo:rustc-env=LAB_CRATES={}", crates.join(", "));
    println!("cargo:rerun-if-changed=Cargo.lock");
}
