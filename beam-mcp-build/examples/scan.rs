//! Prints the declared graph of a crate at level `mfa`, one edge a line, then the bound.
//!
//! `cargo run -p beam-mcp-build --example scan -- DIR CRATE [ROOT]`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(dir), Some(name)) = (args.next(), args.next()) else {
        return Err("usage: scan DIR CRATE [ROOT]".into());
    };
    let mut scan = beam_mcp_build::connectome("srv")
        .manifest_dir(dir)
        .crate_name(name)
        .cfg(beam_mcp_build::Cfg::new().name("unix"))
        .level(beam_mcp_build::Level::Mfa);
    if let Some(root) = args.next() {
        scan = scan.root(root);
    }
    let declared = scan.scan()?;
    for edge in declared.graph.edges() {
        let (from, to, kind, _) = edge.key();
        println!("{from} -{kind}-> {to}");
    }
    for (category, entries) in declared.bound.categories() {
        for entry in entries {
            println!("bound {category}: {entry}");
        }
    }
    Ok(())
}
