//! The specifications of the real catalogs in `../shared/catalogs` (skipped, with a message,
//! when they are not there): every AsyncAPI and OpenAPI file they carry is read and compared
//! with itself without a change, the versioned specifications of `sdk-test-catalog` are judged
//! against the current ones, and a diff of `template-default` where an AsyncAPI payload property
//! becomes required and an OpenAPI operation is removed finds both breaking, each with impact
//! on the right services.

mod support;

use std::path::{Path, PathBuf};

use catalog_diff::catalog::DEFAULT_MAX_FILE_SIZE;
use catalog_diff::catalog::build::ParseCache;
use catalog_diff::diff::{self, ImpactReason};
use catalog_diff::schema::Strategy;
use catalog_diff::spec::{self, Source};

fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("readable folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(files_below(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn is_specification(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let in_spec_folder = path
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|dir| dir == "asyncapi-files");
    (name.contains("asyncapi") || name.contains("openapi") || in_spec_folder)
        && (name.ends_with(".yml") || name.ends_with(".yaml") || name.ends_with(".json"))
}

fn judge(before: &Path, after: &Path, strategy: Strategy) -> Result<spec::Verdict, spec::Error> {
    let (old, new) = (
        std::fs::read_to_string(before).expect("readable"),
        std::fs::read_to_string(after).expect("readable"),
    );
    let load = |path: &str| std::fs::read_to_string(path).map_err(|e| e.to_string());
    let (before, after) = (before.to_string_lossy(), after.to_string_lossy());
    spec::compare(
        Source {
            path: &before,
            text: &old,
            load: &load,
        },
        Source {
            path: &after,
            text: &new,
            load: &load,
        },
        strategy,
        &Default::default(),
    )
}

#[test]
fn every_real_specification_equals_itself() {
    let Some(shared) = support::shared_or_skip("every_real_specification_equals_itself") else {
        return;
    };
    let mut seen = 0;
    for catalog in ["template-default", "sdk-test-catalog", "template-asyncapi"] {
        for file in files_below(&shared.join("catalogs").join(catalog))
            .into_iter()
            .filter(|f| is_specification(f))
        {
            let verdict = judge(&file, &file, Strategy::Full)
                .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            assert!(verdict.kind.is_some(), "{}: not judged", file.display());
            assert_eq!(verdict.ops, Vec::new(), "{}", file.display());
            assert_eq!(
                verdict.breaking,
                Some(false),
                "{}: {:?}",
                file.display(),
                verdict.unknown
            );
            let text = std::fs::read_to_string(&file).expect("readable");
            assert!(
                spec::lines::locate(&text).is_some(),
                "{}: no lines",
                file.display()
            );
            seen += 1;
        }
    }
    eprintln!("{seen} real specifications read");
    assert!(seen >= 12, "only {seen} specifications found");
}

#[test]
fn versioned_specifications_of_sdk_test_catalog_are_judged() {
    let Some(shared) =
        support::shared_or_skip("versioned_specifications_of_sdk_test_catalog_are_judged")
    else {
        return;
    };
    let service = shared.join("catalogs/sdk-test-catalog/domains/Orders/services/OrdersService");
    for name in ["openapi.yml", "order-service-asyncapi.yaml"] {
        let (old, new) = (
            service.join("versioned/0.0.2").join(name),
            service.join(name),
        );
        for strategy in Strategy::ALL {
            let verdict = judge(&old, &new, strategy).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                verdict.breaking.is_some(),
                "{name}: {:?}",
                verdict.unknown_reason
            );
            if strategy == Strategy::None {
                assert_eq!(verdict.breaking, Some(false));
            }
        }
        eprintln!(
            "{name}: 0.0.2 -> current: {}",
            spec::explain(&judge(&old, &new, Strategy::Full).expect("judged"))
                .lines()
                .next()
                .unwrap_or_default()
        );
    }
}

/// Copies a folder (the real catalog) into `to`.
fn copy(from: &Path, to: &Path) {
    for file in files_below(from) {
        let target = to.join(file.strip_prefix(from).expect("below"));
        std::fs::create_dir_all(target.parent().expect("a parent")).expect("mkdir");
        std::fs::copy(&file, &target).expect("copy");
    }
}

fn edit(file: &Path, edit: impl Fn(&str) -> String) {
    let text = std::fs::read_to_string(file).expect("readable");
    let edited = edit(&text);
    assert_ne!(edited, text, "{}: the edit changed nothing", file.display());
    std::fs::write(file, edited).expect("write");
}

#[test]
fn template_default_payload_made_stricter_and_operation_removed() {
    let Some(shared) =
        support::shared_or_skip("template_default_payload_made_stricter_and_operation_removed")
    else {
        return;
    };
    let temp = tempfile::tempdir().expect("temp dir");
    let (before_dir, after_dir) = (temp.path().join("a"), temp.path().join("b"));
    let catalog = shared.join("catalogs/template-default");
    copy(&catalog, &before_dir);
    copy(&catalog, &after_dir);
    let orders = after_dir.join(
        "domains/Ordering/systems/order-management-system/services/OrderService/asyncapi.yml",
    );
    edit(&orders, |text| {
        text.replacen(
            "      required: [orderId, customerId, total, currency, createdAt]\n      properties:\n",
            "      required: [orderId, customerId, total, currency, createdAt, channel]\n      properties:\n        channel:\n          type: string\n",
            1,
        )
    });
    let customers = after_dir.join(
        "domains/Customer/systems/customer-management-system/services/CustomerAPI/openapi.yml",
    );
    edit(&customers, |text| {
        // Drop `get` from `/customers/{customerId}` (up to the next method of the path).
        let start = text.find("  /customers/{customerId}:").expect("the path");
        let get = start + text[start..].find("\n    get:\n").expect("its get") + 1;
        let next = get + 1 + text[get + 1..].find("\n    patch:\n").expect("then patch") + 1;
        format!("{}{}", &text[..get], &text[next..])
    });

    let read =
        |dir: &Path| catalog_diff::git::read_dir(dir, DEFAULT_MAX_FILE_SIZE).expect("a catalog");
    let compared = catalog_diff::pipeline::diff_files(
        (&read(&before_dir)).into(),
        &read(&after_dir),
        ("a".into(), "b".into()),
        "template-default",
        &diff::Options::default(),
        &ParseCache::default(),
        catalog_diff::pipeline::Known::default(),
    );
    let result = compared.diff;
    assert!(result.is_breaking());
    assert!(!result.summary.breaking, "no message schema changed");
    let change = |id: &str, kind: &str| {
        result
            .specification_changes
            .iter()
            .find(|c| c.resource.id == id && c.kind == kind)
            .unwrap_or_else(|| {
                panic!(
                    "a {kind} change of {id}: {:#?}",
                    result.specification_changes
                )
            })
    };

    let asyncapi = change("order-service", "asyncapi");
    assert_eq!(asyncapi.breaking, Some(true));
    assert!(asyncapi.ops.iter().any(|op| op.kind.id == "required.added"
        && op.path == "/components/schemas/OrderCreated/properties/channel"));
    let impact = asyncapi
        .impact
        .iter()
        .find(|i| i.message.id == "order-created")
        .expect("OrderCreated is joined to order-created");
    assert_eq!(impact.reason, ImpactReason::SpecificationBreakingChange);
    assert!(impact.producers.iter().any(|p| p.id == "order-service"
        && p.owners.as_deref() == Some(&["ordering-platform".to_owned()][..])));

    let openapi = change("customer-api", "openapi");
    assert_eq!(openapi.breaking, Some(true));
    assert!(
        openapi
            .ops
            .iter()
            .any(|op| op.kind.id == "operation.removed"
                && op.path == "/paths/~1customers~1{customerId}/get")
    );
    let impact = openapi
        .impact
        .iter()
        .find(|i| i.message.id == "get-customer")
        .expect("GET /customers/{customerId} is joined to get-customer");
    assert_eq!(impact.message.kind, "query");
    assert!(impact.consumers.iter().any(|p| p.id == "customer-api"
        && p.owners.as_deref() == Some(&["customer-platform".to_owned()][..])));
    eprintln!(
        "template-default: {} specification change(s), impact {:?}",
        result.specification_changes.len(),
        result
            .specification_changes
            .iter()
            .flat_map(|c| c.impact.iter().map(|i| (
                i.message.id.clone(),
                i.producers.len(),
                i.consumers.len()
            )))
            .collect::<Vec<_>>()
    );
}
