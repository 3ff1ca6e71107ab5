//! One scan, start to end: the module tree, its tables, the catalog, every body, the graph.

use std::path::{Path, PathBuf};

use beam_mcp_connectome::Level;

use crate::body;
use crate::bound::Category;
use crate::calls::{Caller, Classifier};
use crate::cfg::{Cfg, CfgError};
use crate::declared::Declared;
use crate::error::ScanError;
use crate::graph::{Parts, build};
use crate::index::{Index, Ns, Res};
use crate::items;
use crate::loader::Loader;
use crate::resolve::{Lookup, segments};
use crate::spell::slashed;

/// What one scan is asked.
pub(crate) struct Settings<'a> {
    pub(crate) server: &'a str,
    pub(crate) crate_name: &'a str,
    pub(crate) manifest_dir: &'a Path,
    pub(crate) root: &'a Path,
    pub(crate) level: Level,
    pub(crate) cfg: &'a Cfg,
    pub(crate) sinks: &'a crate::sinks::Sinks,
}

/// The files read (even when the scan fails, so that a fix reruns it) and the outcome.
pub(crate) fn run(settings: &Settings<'_>) -> (Vec<PathBuf>, Result<Declared, ScanError>) {
    let mut loader = Loader::new(settings.manifest_dir, settings.cfg);
    let result = scan(settings, &mut loader);
    (loader.sources, result)
}

fn scan(settings: &Settings<'_>, loader: &mut Loader<'_>) -> Result<Declared, ScanError> {
    if settings.level == Level::Server {
        return Err(ScanError::Level {
            level: settings.level,
        });
    }
    settings.sinks.check()?;
    let tree = loader.load(settings.crate_name, settings.root)?;
    let mut bound = std::mem::take(&mut loader.bound);
    let mut index = Index::build(tree, &mut bound);
    crate::resolve::attributes(&mut index, &mut bound);
    let found = items::collect(&index)?;
    let duplicates = items::duplicates(&found);
    if !duplicates.is_empty() {
        return Err(ScanError::Duplicates(duplicates));
    }
    let file_of = |module: usize| {
        index
            .tree
            .modules
            .get(module)
            .map(|m| m.file.clone())
            .unwrap_or_default()
    };
    let cfg_error = |module: usize, e: CfgError| ScanError::Attribute {
        file: file_of(module),
        line: e.line,
        message: e.message,
    };
    let mut classifier = Classifier::new(&index);
    for (id, def) in index.fns.iter().enumerate() {
        let name = index.fn_name(id);
        let body = body::function(&name, &def.sig, &def.body, settings.cfg)
            .map_err(|e| cfg_error(def.module, e))?;
        let caller = Caller {
            name,
            module: def.module,
            function: Some(id),
            generics: &def.generics,
            bounds: &def.bounds,
            owner: Some(&def.owner),
        };
        classifier.body(&caller, &body, &mut bound);
    }
    for init in &index.initializers {
        let body = body::initializer(&init.name, &init.expr, settings.cfg)
            .map_err(|e| cfg_error(init.module, e))?;
        let caller = Caller {
            name: init.name.clone(),
            module: init.module,
            function: None,
            generics: &[],
            bounds: &[],
            owner: None,
        };
        classifier.body(&caller, &body, &mut bound);
    }
    classifier.finish(&mut bound);
    let completers = completers(&index, &found, &mut bound);
    let graph = build(&Parts {
        server: settings.server,
        crate_name: settings.crate_name,
        level: settings.level,
        index: &index,
        items: &found,
        completers: &completers,
        calls: &classifier.edges,
        external: &classifier.external,
        sinks: settings.sinks,
    })?;
    for source in &loader.sources {
        bound.add(Category::sources, slashed(&loader.relative(source)));
    }
    Ok(Declared {
        graph,
        bound,
        items: found.into_iter().map(|f| f.item).collect(),
        sources: loader.sources.clone(),
        server: settings.server.to_owned(),
    })
}

/// Each item's completers that are the crate's functions, by the item's position; the others
/// go to the bound under the item's function (`weather::station #[resource]`).
fn completers(
    index: &Index,
    found: &[items::Found],
    bound: &mut crate::bound::Bound,
) -> Vec<(usize, usize)> {
    let resolver = crate::resolve::Resolver::new(index);
    let mut out = Vec::new();
    for (position, item) in found.iter().enumerate() {
        let Some(def) = index.fns.get(item.function) else {
            continue;
        };
        let caller = format!("{} #[{}]", item.item.function, item.item.kind.as_str());
        for completer in item.attr.completers() {
            let written = crate::spell::spell(&completer.function);
            let path = segments(&completer.function);
            match resolver.resolve(def.module, &path, Ns::Value) {
                Lookup::Found(Res::Fn(f)) => out.push((position, f)),
                Lookup::Found(Res::Assoc(t, name)) => match resolver.inherent(t, &name) {
                    [f] => out.push((position, *f)),
                    [] => bound.add(Category::trait_calls, format!("{caller} -> {written}")),
                    _ => bound.add(Category::ambiguous_paths, format!("{caller} -> {written}")),
                },
                Lookup::Found(Res::External(resolved)) => {
                    bound.add(
                        Category::external_callees,
                        format!("{caller} -> {}", resolved.join("::")),
                    );
                }
                Lookup::Found(Res::TraitItem(..)) => {
                    bound.add(Category::trait_calls, format!("{caller} -> {written}"));
                }
                Lookup::Ambiguous => {
                    bound.add(Category::ambiguous_paths, format!("{caller} -> {written}"))
                }
                _ => bound.add(Category::unresolved_paths, format!("{caller} -> {written}")),
            }
        }
    }
    out
}
