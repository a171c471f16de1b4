//! `adas` from any directory: nothing it needs is read from the checkout
//! (the templates are in the binary), as after `cargo install`.

use super::*;

/// From an empty directory, with no templates dir: `adas up` serves the
/// templates and runs a job on one; `adas skill init` and `adas skill test`
/// write and pass a starter skill there.
#[test]
pub(super) fn adas_up_and_skill_test_work_from_an_empty_directory() {
    let empty = scratch_dir("cli-anywhere");
    let memory = scratch_dir("cli-anywhere-memory");
    let script = format!(
        "unset ADAS_TEMPLATES_DIR; cd '{}' && exec '{}' up --memory-root '{}' --demo-mcp-listen 127.0.0.1:0 \"$@\"",
        empty.display(),
        workspace_binary("adas").display(),
        memory.display()
    );
    let service =
        SpawnedService::spawn(std::path::Path::new("/bin/sh"), &["-c", &script, "sh"], &[]);
    let server = service.endpoint();
    let in_empty = |args: &[&str]| {
        let output = Command::new(workspace_binary("adas"))
            .args(args)
            .current_dir(&empty)
            .env_remove("ADAS_TEMPLATES_DIR")
            .output()
            .expect("run adas");
        let (stdout, stderr) = text(&output);
        (output.status.code(), stdout, stderr)
    };
    // Nothing stored yet: the list says what there is to start from.
    let (code, listed, stderr) = in_empty(&["--server", &server, "skill", "list"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(listed.is_empty(), "{listed}");
    assert!(
        stderr.contains("no skill stored yet; templates: ") && stderr.contains("cs-tier-1"),
        "{stderr}"
    );
    let (code, job, stderr) = in_empty(&[
        "--server",
        &server,
        "job",
        "start",
        "cs-tier-1",
        "Where is my order ORD-12345?",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let job = job.trim().to_owned();
    let completed = (0..500).any(|_| {
        let (_, shown, _) = in_empty(&["--server", &server, "job", "get", &job, "-o", "json"]);
        let done = shown.contains("JOB_STATUS_COMPLETED");
        if !done {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        done
    });
    assert!(completed, "the template's job completes");
    drop(service);
    let (code, _, stderr) = in_empty(&["skill", "init", "desk"]);
    assert_eq!(code, Some(0), "{stderr}");
    let (code, stdout, stderr) = in_empty(&["skill", "test", "desk.yaml"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("3 scenario(s): 3 passed"), "{stdout}");
}
