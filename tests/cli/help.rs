//! `--help` of every command, snapshotted.

fn help(args: &[&str]) -> String {
    let output = crate::binary(".")
        .args(args)
        .arg("--help")
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(0), "{args:?} --help");
    String::from_utf8(output.stdout).expect("help is UTF-8")
}

#[test]
fn every_command_help_is_snapshotted() {
    let commands: &[&[&str]] = &[
        &[],
        &["diff"],
        &["index"],
        &["log"],
        &["schema"],
        &["spec"],
        &["hook"],
        &["hook", "install"],
        &["hook", "uninstall"],
        &["completions"],
        &["ack"],
    ];
    for args in commands {
        let name = if args.is_empty() {
            "catalog-diff".to_owned()
        } else {
            format!("catalog-diff {}", args.join(" "))
        };
        insta::with_settings!({ prepend_module_to_snapshot => false, snapshot_path => "snapshots", omit_expression => true }, {
            insta::assert_snapshot!(name.replace(' ', "_"), help(args));
        });
    }
}
