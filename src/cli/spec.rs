//! `catalog-diff spec BEFORE AFTER`: judge two AsyncAPI or OpenAPI files on disk. This file only
//! reads the files (and those their relative `$ref`s name, within bounds), hands them to the
//! library's `spec` module and prints the verdict; every error names the file it came from, and
//! a file it cannot judge is never a pass.

use std::path::{Path, PathBuf};

use catalog_diff::catalog::escape_text;
use catalog_diff::schema::{self, Strategy};
use catalog_diff::spec::{self, Source};

use super::diff::FailOn;
use super::exit_code;
use super::schema::{SchemaFormat, disk_name, print_verdict, read_bounded};

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Read from the point of view of the service that owns the specification: its inputs \
(OpenAPI requests and parameters, AsyncAPI receive / 2.x publish) are read by the service, its outputs \
(OpenAPI responses, AsyncAPI send / 2.x subscribe) by its counterparties.\n\n\
Strategies: forward (the service upgrades first and its counterparties stay on the old specification: \
what REST tools call backward compatible), backward (the counterparties upgrade first, or the service \
rolls back), full (both), none (never breaking).\n\n\
Relative $refs are followed (inside the specification's folder or the current folder); remote ones \
never are, and what they cover gets no verdict. Swagger 2.0, and an AsyncAPI 2.x document against a 3.x \
one, get no verdict.\n\n\
Exit codes: 0 no breaking change, 1 a breaking change under the strategy (with --fail-on unknown, \
also a part without a verdict), 2 could not run (unreadable file, not YAML or JSON, not an AsyncAPI or \
OpenAPI document, two different kinds)."
)]
pub struct SpecArgs {
    /// The specification before the change.
    pub before: PathBuf,
    /// The specification after the change.
    pub after: PathBuf,
    /// Which directions to check: backward, forward, full or none (a transitive name judges
    /// as its base strategy: two files hold one earlier version).
    #[arg(long, default_value = "full", value_parser = super::diff::parse_strategy)]
    pub strategy: Strategy,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: SchemaFormat,
    /// breaking: exit 1 on a breaking change; unknown: also when a part has no verdict;
    /// never: exit 0 whenever it ran.
    #[arg(long, value_enum, default_value_t)]
    pub fail_on: FailOn,
    /// Largest file read (each one); a larger one is an error naming it. Bytes, or with a K, M
    /// or G suffix (powers of 1024).
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = super::index::parse_size)]
    pub max_file_size: u64,
    #[command(flatten)]
    pub proto: super::schema::ProtoRulesArg,
}

/// Reads the files relative `$ref`s name: inside the folder of either specification or the
/// current folder, bounded like the specifications themselves.
fn loader(specs: [&Path; 2], limit: u64) -> impl Fn(&str) -> Result<String, String> {
    let roots: Vec<PathBuf> = specs
        .iter()
        .map(|spec| {
            spec.parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."))
        })
        .chain([Path::new(".")])
        .filter_map(|p| p.canonicalize().ok())
        .collect();
    move |path: &str| {
        let real = Path::new(path)
            .canonicalize()
            .map_err(|e| format!("cannot read `{path}`: {e}"))?;
        if !roots.iter().any(|root| real.starts_with(root)) {
            return Err(format!(
                "`{path}` is outside the specifications' folders and the current folder; it is not read"
            ));
        }
        // Looked at before it is opened: opening a FIFO waits for a writer.
        if !real.is_file() {
            return Err(format!("`{path}` is not a regular file; it is not read"));
        }
        read_bounded("referenced file", Path::new(path), limit).map_err(|e| format!("{e:#}"))
    }
}

pub fn run(args: SpecArgs) -> anyhow::Result<u8> {
    let (before_path, after_path) = (disk_name(&args.before), disk_name(&args.after));
    let load = loader([&args.before, &args.after], args.max_file_size);
    // Both files are read before either is refused, so one run names every bad file: the one
    // that was read is checked too when the other cannot be.
    let check = |path: &str, text: &str| {
        let source = Source {
            path,
            text,
            load: &load,
        };
        spec::check(source).map_err(|error| explain_error(&error, &before_path))
    };
    let (before_text, after_text) = match (
        read_bounded("before specification", &args.before, args.max_file_size),
        read_bounded("after specification", &args.after, args.max_file_size),
    ) {
        (Ok(before), Ok(after)) => (before, after),
        (Err(before), Err(after)) => anyhow::bail!("{before:#}\nerror: {after:#}"),
        (Err(error), Ok(after)) => match check(&after_path, &after) {
            Err(also) => anyhow::bail!("{error:#}\nerror: {also:#}"),
            Ok(()) => return Err(error),
        },
        (Ok(before), Err(error)) => match check(&before_path, &before) {
            Err(also) => anyhow::bail!("{also:#}\nerror: {error:#}"),
            Ok(()) => return Err(error),
        },
    };
    let before = Source {
        path: &before_path,
        text: &before_text,
        load: &load,
    };
    let after = Source {
        path: &after_path,
        text: &after_text,
        load: &load,
    };
    let options = schema::Options {
        proto_rules: args.proto.proto_rules,
    };
    let verdict = spec::compare(before, after, args.strategy, &options).map_err(|error| {
        let first = explain_error(&error, &before_path);
        // The after file may be broken too: one run names every bad file.
        let also = (error.file() == before_path && after_path != before_path)
            .then(|| spec::check(after).err())
            .flatten();
        match also {
            Some(also) => {
                anyhow::anyhow!("{first:#}\nerror: {:#}", explain_error(&also, &before_path))
            }
            None => first,
        }
    })?;
    print_verdict(args.format, &verdict, || spec::explain(&verdict))?;
    let trips = match args.fail_on {
        FailOn::Breaking => verdict.breaking == Some(true),
        FailOn::Unknown => verdict.breaking != Some(false),
        FailOn::Never => false,
    };
    Ok(if trips {
        exit_code::POLICY
    } else {
        exit_code::OK
    })
}

/// The error a file gets for `error`, on one line: what it quotes from the file (a YAML tag, a
/// `$ref`) is escaped, so a newline there cannot start a line of its own.
fn explain_error(error: &spec::Error, before: &str) -> anyhow::Error {
    let role = if error.file() == before {
        "before"
    } else {
        "after"
    };
    let text = match error {
        spec::Error::Parse {
            file,
            syntax,
            line,
            column,
            message,
        } => format!(
            "{file}:{line}:{column}: the {role} specification is not valid {syntax} ({message}); fix the syntax there"
        ),
        spec::Error::NotASpecification { file, reason } => format!(
            "{file}: the {role} file is not an AsyncAPI or OpenAPI document: {reason}; pass a specification"
        ),
        other => other.to_string(),
    };
    anyhow::anyhow!("{}", escape_text(&text))
}
