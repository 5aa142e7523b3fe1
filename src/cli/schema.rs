//! `catalog-diff schema BEFORE AFTER`: judge two schema files on disk. This file only reads the
//! two files, hands the parsed documents to the library and prints the verdict; every error names
//! the file it came from and says what to do.

use std::path::{Path, PathBuf};

use anyhow::Context;
use catalog_diff::schema::{self, Strategy};
use serde_json::Value;

use super::exit_code;

/// How the verdict is printed.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SchemaFormat {
    /// One sentence per change, for people.
    Text,
    /// Exactly the verdict object: `{"breaking", "direction", "ops"}`.
    Json,
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Exit codes: 0 no breaking change, 1 a breaking change under the strategy, \
2 could not run (unreadable file, invalid JSON, not a JSON Schema)."
)]
pub struct SchemaArgs {
    /// The schema before the change.
    pub before: PathBuf,
    /// The schema after the change.
    pub after: PathBuf,
    /// Which directions to check: backward, forward, full or none.
    #[arg(long, default_value = "full")]
    pub strategy: Strategy,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: SchemaFormat,
}

fn load(role: &str, path: &Path) -> anyhow::Result<Value> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!(
            "cannot read the {role} schema {}; check the path",
            path.display()
        )
    })?;
    schema::parse_json_schema(&text).map_err(|error| match error {
        schema::Error::InvalidJson { line, column, .. } => anyhow::anyhow!(
            "{}:{line}:{column}: the {role} schema is not valid JSON ({error}); fix the syntax there",
            path.display()
        ),
        schema::Error::NotASchema => anyhow::anyhow!(
            "{}: the {role} file is {error}; pass a schema file, not an example payload",
            path.display()
        ),
        other => anyhow::anyhow!("{}: {other}", path.display()),
    })
}

pub fn run(args: SchemaArgs) -> anyhow::Result<u8> {
    let before = load("before", &args.before)?;
    let after = load("after", &args.after)?;
    let verdict =
        schema::compare_json_schema(&before, &after, args.strategy).with_context(|| {
            format!(
                "comparing {} with {}",
                args.before.display(),
                args.after.display()
            )
        })?;
    let output = match args.format {
        SchemaFormat::Json => {
            let mut text =
                serde_json::to_string_pretty(&verdict).context("serialising the verdict")?;
            text.push('\n');
            text
        }
        SchemaFormat::Text => schema::explain(&verdict),
    };
    print_stdout(&output)?;
    Ok(if verdict.breaking {
        exit_code::POLICY
    } else {
        exit_code::OK
    })
}

/// Write the report; a closed pipe (`| head`) is not an error for the user.
fn print_stdout(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(error) if error.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(error).context("writing to stdout")
        }
        _ => Ok(()),
    }
}
