//! The diff over the real history of `../shared/catalogs/examples-default.bundle`: every pair of
//! consecutive commits diffs without a catalog error, and the same diff is produced whatever
//! the thread count. Skipped, with a message, when `../shared` is not there.

mod support;
#[path = "../examples/generate/synth/mod.rs"]
#[allow(dead_code, reason = "the walk tests use only the repository writer")]
mod synth;

use catalog_diff::catalog::build::{Options, ParseCache, Summary, build, build_beside};
use catalog_diff::catalog::scope::Scope;
use catalog_diff::catalog::{Baseline, Before, Severity};
use catalog_diff::diff;
use catalog_diff::git::Repo;
use catalog_diff::pipeline::Known;

#[test]
fn every_consecutive_pair_of_examples_default_diffs() {
    let Some((_temp, clone)) =
        support::examples_default_clone("every_consecutive_pair_of_examples_default_diffs")
    else {
        return;
    };
    let repo = Repo::discover(&clone).expect("a repository");
    let commits = repo.first_parent_walk(None).expect("history");
    assert_eq!(commits.len(), 152);
    let cache = ParseCache::default();
    let indexes: Vec<_> = commits
        .iter()
        .map(|commit| {
            let files = repo.read_commit(commit.id, "").expect("readable commit");
            let options = Options {
                source: "examples-default".into(),
                commit: commit.id.to_string(),
                hash_content: true,
                include_schema_content: true,
            };
            let built = build(&files, &options, &cache);
            let errors: Vec<_> = built
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .collect();
            assert!(errors.is_empty(), "{}: {errors:#?}", commit.id);
            built.index
        })
        .collect();
    let options = diff::Options::default();
    let breaking = indexes
        .windows(2)
        .filter(|pair| diff::diff(&pair[0], &pair[1], &options).summary.breaking)
        .count();
    eprintln!(
        "{breaking} of {} consecutive pairs are breaking under `full`",
        indexes.len() - 1
    );
    assert!(breaking > 0 && breaking < indexes.len() - 1);

    // Same bytes out whatever the parallelism.
    let (first, last) = (&indexes[0], &indexes[indexes.len() - 1]);
    let parallel = serde_json::to_string(&diff::diff(first, last, &options)).expect("json");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool");
    let sequential =
        pool.install(|| serde_json::to_string(&diff::diff(first, last, &options)).expect("json"));
    assert_eq!(parallel, sequential);
}

/// Walks `repo`'s whole first-parent history and checks every step against a whole build of
/// the commit and its parent: the same ArchitectureDiff (every field) and the same catalog
/// diagnostics. Returns (changed commits, commits diffed on their reach).
fn assert_walk_equals_whole_builds(repo: &Repo, dir: &str) -> (usize, usize) {
    use catalog_diff::history::{self, Baseline};
    let commits = repo.first_parent_walk(None).expect("history");
    let options = history::Options {
        source: "catalog".into(),
        dir: dir.into(),
        diff: diff::Options::default(),
        baseline: Baseline::Parent,
    };
    let cache = ParseCache::default();
    let mut steps = 0;
    let walk_cache = ParseCache::default();
    let outcome = history::walk(
        repo,
        None,
        &commits,
        &options,
        &walk_cache,
        &mut |_| {},
        &mut |step| {
            steps += 1;
            // An invalid catalog has no diff; the commit after it is diffed against the last
            // valid one.
            let baseline = step.against.or(step.parent);
            // Both sides' files too: specifications are read from them (#17).
            let read = |commit| {
                let files = history::read_at(repo, commit, &options).expect("a catalog");
                (
                    history::build_files(&files, commit, &options, &cache),
                    files,
                )
            };
            let ((a, a_files), (b, b_files)) = (read(baseline), read(Some(step.commit.id)));
            let invalid = b.diagnostics.iter().any(|d| d.severity == Severity::Error);
            let expected = (!invalid).then(|| {
                let mut expected = diff::diff_with_files(
                    (&a.index, &a_files),
                    (&b.index, &b_files),
                    &options.diff,
                    &diff::VerdictCache::default(),
                );
                expected.refs.a.commit = baseline.map(|p| p.to_string()).unwrap_or_default();
                expected
            });
            let json = |d: &diff::ArchitectureDiff| serde_json::to_value(d).expect("json");
            assert_eq!(
                step.diff.as_ref().map(json),
                expected.as_ref().map(json),
                "{} ({})",
                step.commit.id,
                step.commit.subject
            );
            assert_eq!(step.diagnostics, b.diagnostics, "{}", step.commit.id);
            std::ops::ControlFlow::Continue(())
        },
    )
    .expect("walk");
    (steps, outcome.cut)
}

#[test]
fn the_walk_equals_whole_builds_on_examples_default() {
    let Some((_temp, clone)) =
        support::examples_default_clone("the_walk_equals_whole_builds_on_examples_default")
    else {
        return;
    };
    let repo = Repo::discover(&clone).expect("a repository");
    let (steps, cut) = assert_walk_equals_whole_builds(&repo, "");
    eprintln!("examples-default: {cut} of {steps} steps diffed on their reach");
    assert!(steps > 50);
    // Its channels and flows that the SDK aliases carry no schemas: they send nothing whole.
    assert!(cut * 4 > steps * 3, "only {cut} of {steps} steps were cut");
}

/// Writes a generated repository at `dir`: (messages, services, domains, commits, seed).
fn generate(
    dir: &std::path::Path,
    (messages, services, domains, commits, seed): (usize, usize, usize, usize, u64),
) {
    let params = synth::Params {
        messages,
        services,
        domains,
        commits,
        seed,
    };
    let catalog = synth::Catalog::generate(&params).expect("valid params");
    synth::repository::write(dir, &catalog).expect("the repository is written");
}

#[test]
fn the_walk_equals_whole_builds_on_a_generated_history() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let dir = temp.path().join("synthetic");
    generate(&dir, (150, 30, 6, 150, 7));
    let repo = Repo::discover(&dir).expect("a repository");
    let (steps, cut) = assert_walk_equals_whole_builds(&repo, "");
    eprintln!("generated: {cut} of {steps} steps diffed on their reach");
    assert!(steps > 100);
    // Most real changes stay local: schema edits, versions, consumers.
    assert!(cut * 2 > steps, "only {cut} of {steps} steps were cut");
}

/// A scripted history of the changes the reach must get right, each checked against whole
/// builds: a schema shared through `../`, a schema in a plain sub-folder named by an ancestor,
/// an id declared twice, a version release, a consumer added, a consumed message removed, a
/// team edit, a broken front matter and its fix, and a whole folder removed.
#[test]
fn the_walk_equals_whole_builds_on_tricky_changes() {
    let repo = support::TestRepo::new();
    let object = |props: &str| format!("{{\"type\": \"object\", \"properties\": {{{props}}}}}");
    repo.write_all(&[
        ("teams/core.mdx", "---\nid: core\nname: Core\n---\n"),
        (
            "services/Orders/index.mdx",
            "---\nid: Orders\nversion: 1.0.0\nowners: [core]\nschemaPath: schemas/api.json\nsends:\n  - id: OrderPlaced\n  - id: Shared\n---\n",
        ),
        ("services/Orders/schemas/api.json", &object("\"a\": {\"type\": \"string\"}")),
        (
            "services/Billing/index.mdx",
            "---\nid: Billing\nversion: 1.0.0\nreceives:\n  - id: OrderPlaced\n    version: ^1.0.0\n---\n",
        ),
        (
            "events/OrderPlaced/index.mdx",
            "---\nid: OrderPlaced\nversion: 1.0.0\nschemaPath: schema.json\n---\n",
        ),
        ("events/OrderPlaced/schema.json", &object("\"id\": {\"type\": \"string\"}")),
        (
            "events/Shared/index.mdx",
            "---\nid: Shared\nversion: 1.0.0\nschemaPath: ../OrderPlaced/schema.json\n---\n",
        ),
        (
            "events/Copy/index.mdx",
            "---\nid: OrderPlaced\nversion: 1.0.0\nname: a copy\n---\n",
        ),
    ]);
    repo.commit_all("catalog");
    // (subject, edits): an edit writes a file, or removes it with `None`.
    type Step<'a> = (&'a str, &'a [(&'a str, Option<&'a str>)]);
    let steps: &[Step] = &[
        // The schema `Shared` reads through `../` changes incompatibly.
        (
            "shared schema",
            &[(
                "events/OrderPlaced/schema.json",
                Some("{\"type\": \"string\"}"),
            )],
        ),
        // A schema in a plain sub-folder of a service.
        (
            "service schema",
            &[(
                "services/Orders/schemas/api.json",
                Some("{\"type\": \"integer\"}"),
            )],
        ),
        // The duplicate id goes away.
        ("copy removed", &[("events/Copy/index.mdx", None)]),
        // A new version: the old one moves into versioned/.
        (
            "release 2.0.0",
            &[
                (
                    "events/OrderPlaced/versioned/1.0.0/index.mdx",
                    Some("---\nid: OrderPlaced\nversion: 1.0.0\nschemaPath: schema.json\n---\n"),
                ),
                (
                    "events/OrderPlaced/versioned/1.0.0/schema.json",
                    Some("{\"type\": \"string\"}"),
                ),
                (
                    "events/OrderPlaced/index.mdx",
                    Some("---\nid: OrderPlaced\nversion: 2.0.0\nschemaPath: schema.json\n---\n"),
                ),
                (
                    "events/OrderPlaced/schema.json",
                    Some("{\"type\": \"number\"}"),
                ),
            ],
        ),
        // A consumer of the old range appears.
        (
            "consumer added",
            &[(
                "services/Audit/index.mdx",
                Some(
                    "---\nid: Audit\nversion: 1.0.0\nreceives:\n  - id: Shared\n  - id: OrderPlaced\n    version: 1.0.0\n---\n",
                ),
            )],
        ),
        // Assets reach only the Index's `assets`; an index file among them is a candidate
        // file like any other (content paths are found by id).
        ("logo", &[("public/logo.svg", Some("<svg/>"))]),
        (
            "page among the assets",
            &[(
                "public/guide/index.md",
                Some("---\nid: Billing\nname: a guide\n---\n"),
            )],
        ),
        (
            "team renamed",
            &[(
                "teams/core.mdx",
                Some("---\nid: core\nname: Core team\n---\n"),
            )],
        ),
        (
            "broken",
            &[(
                "services/Billing/index.mdx",
                Some("---\nid: [Billing\n---\n"),
            )],
        ),
        (
            "fixed",
            &[(
                "services/Billing/index.mdx",
                Some("---\nid: Billing\nversion: 1.1.0\nreceives:\n  - id: OrderPlaced\n---\n"),
            )],
        ),
        // A consumed message goes, with its versions.
        (
            "message removed",
            &[
                ("events/OrderPlaced/index.mdx", None),
                ("events/OrderPlaced/schema.json", None),
                ("events/OrderPlaced/versioned/1.0.0/index.mdx", None),
                ("events/OrderPlaced/versioned/1.0.0/schema.json", None),
            ],
        ),
        // A schema path that leaves the catalog, then one that names a file not there yet,
        // which then comes.
        (
            "schema outside",
            &[(
                "events/Payment/index.mdx",
                Some("---\nid: Payment\nversion: 1.0.0\nschemaPath: ../../../outside.json\n---\n"),
            )],
        ),
        (
            "schema not there",
            &[(
                "events/Payment/index.mdx",
                Some("---\nid: Payment\nversion: 1.0.1\nschemaPath: schema.json\n---\n"),
            )],
        ),
        (
            "schema there",
            &[("events/Payment/schema.json", Some("{\"type\": \"object\"}"))],
        ),
    ];
    for (subject, edits) in steps {
        for (path, contents) in *edits {
            match contents {
                Some(text) => {
                    repo.write(path, text);
                }
                None => {
                    repo.remove(path);
                }
            }
        }
        repo.commit_all(subject);
    }
    let git = Repo::discover(&repo.path()).expect("a repository");
    let (steps_seen, cut) = assert_walk_equals_whole_builds(&git, "");
    eprintln!("tricky: {cut} of {steps_seen} steps diffed on their reach");
    assert_eq!(steps_seen, steps.len() + 1);
    // Seven steps have a reach that can be cut, the logo among them (an asset change is no
    // longer diffed whole).
    assert!(cut >= 7, "the reach was used {cut} times");
    assert_eq!(
        assert_diff_files_equals_whole_builds(&git, 1),
        2 * steps.len()
    );
    assert!(assert_diff_files_equals_whole_builds(&git, 3) > 10);
}

/// Files no front matter names can be read across resource folders: a Protobuf schema imports a
/// `.proto` kept in another resource's folder (a service's, or another message's schema), and
/// a specification `$ref`s a message's schema file (JSON Schema, Avro). A change to such a file
/// reaches its readers; every step equals whole builds.
#[test]
fn the_walk_equals_whole_builds_where_schemas_import_files_of_other_resources() {
    let repo = support::TestRepo::new();
    let proto = |body: &str| format!("syntax = \"proto3\";\npackage acme;\n{body}\n");
    let openapi = "openapi: 3.0.3\ninfo: {title: S, version: 1.0.0}\npaths:\n  /orders:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema:\n              $ref: '../../events/Body/body.json'\n      responses:\n        '200': {description: ok}\n";
    let asyncapi = "asyncapi: 2.6.0\ninfo: {title: A, version: '1'}\nchannels:\n  orders:\n    subscribe:\n      message:\n        schemaFormat: application/vnd.apache.avro;version=1.9.0\n        payload: {$ref: '../../events/Order/order.avsc'}\n";
    let avro = |ty: &str| {
        format!(
            "{{\"type\": \"record\", \"name\": \"Order\", \"fields\": [{{\"name\": \"qty\", \"type\": \"{ty}\"}}]}}"
        )
    };
    let body = |ty: &str| {
        format!("{{\"type\": \"object\", \"properties\": {{\"id\": {{\"type\": \"{ty}\"}}}}}}")
    };
    repo.write_all(&[
        (
            "services/S/index.mdx",
            "---\nid: S\nversion: 1.0.0\nsends:\n  - id: E\nspecifications:\n  openapiPath: openapi.yml\n---\n",
        ),
        ("services/S/openapi.yml", openapi),
        ("services/S/common.proto", &proto("message Common { string id = 1; }")),
        (
            "events/E/index.mdx",
            "---\nid: E\nversion: 1.0.0\nschemaPath: e.proto\n---\n",
        ),
        (
            "events/E/e.proto",
            &proto("import \"services/S/common.proto\";\nimport \"events/F/f.proto\";\nmessage E { Common common = 1; F f = 2; }"),
        ),
        (
            "events/F/index.mdx",
            "---\nid: F\nversion: 1.0.0\nschemaPath: f.proto\n---\n",
        ),
        ("events/F/f.proto", &proto("message F { string name = 1; }")),
        (
            "events/Body/index.mdx",
            "---\nid: Body\nversion: 1.0.0\nschemaPath: body.json\n---\n",
        ),
        ("events/Body/body.json", &body("string")),
        (
            "services/A/index.mdx",
            "---\nid: A\nversion: 1.0.0\nspecifications:\n  asyncapiPath: asyncapi.yaml\n---\n",
        ),
        ("services/A/asyncapi.yaml", asyncapi),
        ("events/Order/index.mdx", "---\nid: Order\nversion: 1.0.0\n---\n"),
        ("events/Order/order.avsc", &avro("int")),
    ]);
    repo.commit_all("catalog");
    let steps = [
        (
            "services/S/common.proto",
            proto("message Common { int64 id = 1; }"),
        ),
        ("events/F/f.proto", proto("message F { int64 name = 1; }")),
        ("events/Body/body.json", body("integer")),
        ("events/Order/order.avsc", avro("string")),
    ];
    for (path, text) in &steps {
        repo.write(path, text);
        repo.commit_all(path);
    }
    let git = Repo::discover(&repo.path()).expect("a repository");
    let (steps_seen, _) = assert_walk_equals_whole_builds(&git, "");
    assert_eq!(steps_seen, steps.len() + 1);
    assert_eq!(
        assert_diff_files_equals_whole_builds(&git, 1),
        2 * steps.len()
    );
}

/// `pipeline::diff_files` (the candidate whole, the baseline on the reach) against two whole
/// builds, for pairs of commits `step` apart, both ways round. Returns how many pairs it checked.
fn assert_diff_files_equals_whole_builds(repo: &Repo, step: usize) -> usize {
    let commits = repo.first_parent_walk(None).expect("history");
    let cache = ParseCache::default();
    let options = diff::Options::default();
    let files: Vec<_> = commits
        .iter()
        .map(|c| (c.id.to_string(), repo.read_commit(c.id, "").expect("read")))
        .collect();
    // Schema text in the Index, where the diff under test reads it from the files.
    let options_for =
        |label: &String| catalog_diff::pipeline::build_options("catalog", label.clone(), true);
    let whole = |(label, files): &(String, catalog_diff::catalog::FileSet)| {
        build(files, &options_for(label), &cache)
    };
    let mut checked = 0;
    for (i, j) in (step..files.len()).flat_map(|j| [(j - step, j), (j, j - step)]) {
        let (a, b) = (&files[i], &files[j]);
        // The scope of one change scans what a walk's scope keeps indexed: the same reach.
        let between = catalog_diff::git::Changes::between(&a.1, &b.1);
        let changes = &between.paths;
        // What a side lacks, as a scope of it alone finds it.
        let absent = |files| Scope::new(files, &cache, None).absent().clone();
        let [scanned, indexed] = [
            Scope::new(&a.1, &cache, None),
            Scope::new(&a.1, &cache, None).indexed(),
        ]
        .map(|mut scope| {
            let reach = scope.reach(&b.1, changes, &cache);
            // A scope moved along a change lacks what the catalog after it lacks.
            if reach.is_some() {
                assert_eq!(scope.absent(), &absent(&b.1), "{} -> {}", a.0, b.0);
            }
            reach.map(|r| r.resource_files)
        });
        assert_eq!(scanned, indexed, "{} -> {}", a.0, b.0);
        let (whole_a, whole_b) = (whole(a), whole(b));
        // Built beside the other side, sharing what came out the same, a side is the same.
        let beside = build_beside(&b.1, &options_for(&b.0), &cache, &whole_a.index);
        let text = |built: &catalog_diff::catalog::build::Built| {
            serde_json::to_string(&(&built.index, &built.diagnostics)).expect("json")
        };
        assert_eq!(text(&beside), text(&whole_b), "{} beside {}", b.0, a.0);
        let expected = diff::diff_with_files(
            (&whole_a.index, &a.1),
            (&whole_b.index, &b.1),
            &options,
            &diff::VerdictCache::default(),
        );
        // The baseline read on its own, and read through the candidate as `--staged` reads
        // it, with the changes known.
        let undone = Baseline::Undone {
            files: Before {
                after: &b.1,
                changes,
            },
            special: &a.1.special,
        };
        let through_b = Known {
            changes: Some(&between),
            ..Known::default()
        };
        // With no side summed up, then with the summaries the pairs before left behind (one
        // side's, or both).
        let ways = [
            (Baseline::Whole(&a.1), Known::default()),
            (undone, through_b),
        ];
        for (cache, (baseline, known)) in [&ParseCache::default(), &cache]
            .into_iter()
            .flat_map(|cache| ways.iter().map(move |way| (cache, way)))
        {
            let got = catalog_diff::pipeline::diff_files(
                *baseline,
                &b.1,
                (a.0.clone(), b.0.clone()),
                "catalog",
                &options,
                cache,
                *known,
            );
            let json = |d: &diff::ArchitectureDiff| serde_json::to_value(d).expect("json");
            assert_eq!(json(&got.diff), json(&expected), "{} -> {}", a.0, b.0);
            for ((got, whole), files) in got
                .summaries
                .iter()
                .zip([&whole_a, &whole_b])
                .zip([&a.1, &b.1])
            {
                let without = Summary {
                    absent: None,
                    ..got.clone()
                };
                assert_eq!(without, Summary::of(whole), "{} -> {}", a.0, b.0);
                if let Some(found) = &got.absent {
                    assert_eq!(found, &absent(files), "{} -> {}", a.0, b.0);
                }
            }
        }
        checked += 1;
    }
    checked
}

#[test]
fn diff_files_equals_whole_builds() {
    let temp = tempfile::tempdir().expect("a temporary folder");
    let dir = temp.path().join("synthetic");
    generate(&dir, (80, 16, 4, 40, 3));
    let generated = Repo::discover(&dir).expect("a repository");
    assert!(assert_diff_files_equals_whole_builds(&generated, 1) > 70);
    assert!(assert_diff_files_equals_whole_builds(&generated, 9) > 50);
    if let Some((_temp, clone)) = support::examples_default_clone("diff_files_equals_whole_builds")
    {
        let repo = Repo::discover(&clone).expect("a repository");
        assert!(assert_diff_files_equals_whole_builds(&repo, 1) > 250);
        assert!(assert_diff_files_equals_whole_builds(&repo, 13) > 200);
    }
}

/// The walk judges commits in parallel chunks of 32 and learns in order whether a catalog is
/// valid: a broken catalog at the end of one chunk, still broken at the start of the next and
/// fixed after, is diffed as whole builds would diff it.
#[test]
fn the_walk_equals_whole_builds_across_an_invalid_stretch_between_chunks() {
    let repo = support::TestRepo::new();
    let billing = |version: &str| {
        format!("---\nid: Billing\nversion: {version}\nreceives:\n  - id: OrderPlaced\n---\n")
    };
    let event = |n: usize| {
        format!(
            "---\nid: OrderPlaced\nversion: 1.0.{n}\nschemaPath: schema.json\nsummary: edit {n}\n---\n"
        )
    };
    repo.write_all(&[
        ("services/Billing/index.mdx", &billing("1.0.0")),
        ("events/OrderPlaced/index.mdx", &event(0)),
        ("events/OrderPlaced/schema.json", "{\"type\": \"object\"}"),
    ]);
    repo.commit_all("catalog");
    for n in 1..=30 {
        repo.write("events/OrderPlaced/index.mdx", &event(n));
        repo.commit_all(&format!("edit {n}"));
    }
    repo.write("services/Billing/index.mdx", "---\nid: [Billing\n---\n");
    repo.commit_all("broken (the last commit of the first chunk)");
    repo.write("events/OrderPlaced/schema.json", "{\"type\": \"string\"}");
    repo.commit_all("a break while broken (the first of the second)");
    repo.write("services/Billing/index.mdx", &billing("1.1.0"));
    repo.commit_all("fixed");
    repo.write("events/OrderPlaced/index.mdx", &event(31));
    repo.commit_all("edit after the fix");
    let git = Repo::discover(&repo.path()).expect("a repository");
    let (steps, cut) = assert_walk_equals_whole_builds(&git, "");
    assert_eq!(steps, 35);
    assert!(cut >= 30, "the reach was used {cut} times");

    // The commits after the broken one are judged against the last valid commit.
    use catalog_diff::history::{self, Baseline};
    let commits = git.first_parent_walk(None).expect("history");
    let subject_of = |id| {
        commits
            .iter()
            .find(|c| c.id == id)
            .map(|c| c.subject.clone())
    };
    let options = history::Options {
        source: "catalog".into(),
        dir: String::new(),
        diff: diff::Options::default(),
        baseline: Baseline::Parent,
    };
    let mut seen = Vec::new();
    history::walk(
        &git,
        None,
        &commits,
        &options,
        &ParseCache::default(),
        &mut |_| {},
        &mut |step| {
            let against = step.against.and_then(subject_of);
            seen.push((step.commit.subject.clone(), step.diff.is_some(), against));
            std::ops::ControlFlow::Continue(())
        },
    )
    .expect("walk");
    let edit_30 = Some("edit 30".to_owned());
    assert_eq!(
        seen[31..],
        [
            (
                "broken (the last commit of the first chunk)".into(),
                false,
                None
            ),
            (
                "a break while broken (the first of the second)".into(),
                false,
                edit_30.clone()
            ),
            ("fixed".into(), true, edit_30),
            ("edit after the fix".into(), true, None),
        ]
    );
}

/// A catalog holding an id whose versions have no consistent order (semver mixed with other
/// text): the SDK's sort places them by every other resource, so a change anywhere can move
/// them and no cut is faithful. Each step of a walk back and forth between the two catalogs
/// of each such recorded case equals whole builds.
#[test]
fn the_walk_equals_whole_builds_where_versions_have_no_order() {
    let cases =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/conformance/reference");
    for case in [
        "versions-without-order-in-a-cut",
        "versions-without-order-move-with-other-files",
    ] {
        let repo = support::TestRepo::new();
        for side in ["a", "b", "a", "b"] {
            repo.git(&["rm", "-rq", "--ignore-unmatch", "."]);
            support::copy_dir(&cases.join(case).join(side), &repo.path());
            repo.commit_all(side);
        }
        let repo = Repo::discover(&repo.path()).expect("a repository");
        let (steps, cut) = assert_walk_equals_whole_builds(&repo, "");
        assert_eq!((steps, cut), (4, 0), "{case}");
    }
}
