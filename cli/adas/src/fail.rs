//! How `adas` fails: one line saying what went wrong and, where there is
//! one, the fix; and one exit code per kind of failure, the same under every
//! command (the table is in README.md, "Exit codes").

use std::process::ExitCode;

/// The exit codes of every command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Exit {
    /// The command ran and its result is a failure (a job failed, a file or
    /// a document put has errors, a test did not pass), or the server failed.
    Failed = 1,
    /// The command line or a value in it is wrong (clap's own errors too),
    /// or the server refused an argument (`INVALID_ARGUMENT`).
    Usage = 2,
    /// What was named does not exist (`NOT_FOUND`).
    NotFound = 3,
    /// The key is missing, unknown or lacks the role (`UNAUTHENTICATED`,
    /// `PERMISSION_DENIED`).
    Denied = 4,
    /// The server cannot be reached or does not serve this service
    /// (`UNAVAILABLE`, `DEADLINE_EXCEEDED`, `UNIMPLEMENTED`).
    Unavailable = 5,
    /// The thing is not in a state for this: changed meanwhile, already
    /// exists, or not yet possible (`ABORTED`, `ALREADY_EXISTS`,
    /// `FAILED_PRECONDITION`).
    Conflict = 6,
    /// A quota or rate limit (`RESOURCE_EXHAUSTED`): try again later.
    Limited = 7,
}

/// A failed command: its exit code and its one-line message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The exit code.
    pub exit: Exit,
    /// What went wrong, and the fix.
    pub message: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Self::failed(message)
    }
}

impl From<Failure> for String {
    fn from(failure: Failure) -> Self {
        failure.message
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Self {
        Self::failed(message)
    }
}

impl Failure {
    /// Exit 1.
    pub fn failed(message: impl Into<String>) -> Self {
        Self {
            exit: Exit::Failed,
            message: message.into(),
        }
    }

    /// Exit 6: the thing is not in a state for this (decided here, as the
    /// server would have: FAILED_PRECONDITION).
    pub fn conflict(message: impl Into<String>) -> Self {
        Self {
            exit: Exit::Conflict,
            message: message.into(),
        }
    }

    /// Exit 2.
    pub fn usage(message: impl Into<String>) -> Self {
        Self {
            exit: Exit::Usage,
            message: message.into(),
        }
    }

    /// The server at `server` could not be reached.
    pub fn unreachable(server: &str, error: impl std::fmt::Display) -> Self {
        Self {
            exit: Exit::Unavailable,
            message: format!(
                "cannot reach {server} ({error}): is `adas up` running there? Set --server (or ADAS_SERVER) to the suite's address"
            ),
        }
    }

    /// A call the server answered with `status`.
    pub fn from_status(status: &tonic::Status) -> Self {
        use tonic::Code;
        let info = tonic_types::StatusExt::get_details_error_info(status);
        // A document with errors is the file's failure (1, as `skill
        // validate` says it), not a wrong command line.
        let document = info
            .as_ref()
            .is_some_and(|info| info.reason == "SKILL_INVALID");
        let (exit, fix) = match status.code() {
            Code::InvalidArgument if document => (Exit::Failed, ""),
            Code::InvalidArgument | Code::OutOfRange => (Exit::Usage, ""),
            Code::NotFound => (Exit::NotFound, ""),
            Code::Unauthenticated => (
                Exit::Denied,
                " (pass a key with --api-key or ADAS_API_KEY; `adas auth key create` makes one)",
            ),
            Code::PermissionDenied => (Exit::Denied, ""),
            Code::Unavailable | Code::DeadlineExceeded => (
                Exit::Unavailable,
                " (is the suite running and reachable at --server?)",
            ),
            Code::Unimplemented => (
                Exit::Unavailable,
                " (the server at --server does not serve this service: point --server at `adas up` or at the gateway in front of the split suite)",
            ),
            Code::AlreadyExists | Code::Aborted | Code::FailedPrecondition => (Exit::Conflict, ""),
            Code::ResourceExhausted => (Exit::Limited, " (try again later)"),
            _ => (Exit::Failed, ""),
        };
        let reason = info
            .map(|info| format!(" [{}]", info.reason))
            .unwrap_or_default();
        let message = if status.message().is_empty() {
            "no message".to_owned()
        } else {
            status.message().replace('\n', " ")
        };
        Self {
            exit,
            message: format!("{:?}: {message}{reason}{fix}", status.code()),
        }
    }

    /// Prints the message on stderr and returns the exit code.
    pub fn report(&self) -> ExitCode {
        if !self.message.is_empty() {
            eprintln!("error: {}", self.message);
        }
        ExitCode::from(self.exit as u8)
    }
}

/// `host:port` without a scheme means plain `http://` (what `adas up`
/// serves); `https://` and `http://` stay as given.
pub fn with_scheme(server: &str) -> String {
    if server.contains("://") {
        server.to_owned()
    } else {
        format!("http://{server}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_status_has_one_exit_code() {
        let cases = [
            (tonic::Code::InvalidArgument, Exit::Usage),
            (tonic::Code::NotFound, Exit::NotFound),
            (tonic::Code::Unauthenticated, Exit::Denied),
            (tonic::Code::PermissionDenied, Exit::Denied),
            (tonic::Code::Unavailable, Exit::Unavailable),
            (tonic::Code::Unimplemented, Exit::Unavailable),
            (tonic::Code::FailedPrecondition, Exit::Conflict),
            (tonic::Code::ResourceExhausted, Exit::Limited),
            (tonic::Code::Internal, Exit::Failed),
        ];
        for (code, exit) in cases {
            assert_eq!(
                Failure::from_status(&tonic::Status::new(code, "x")).exit,
                exit,
                "{code:?}"
            );
        }
        let empty = Failure::from_status(&tonic::Status::new(tonic::Code::Unimplemented, ""));
        assert!(empty.message.contains("gateway"), "{}", empty.message);
    }

    #[test]
    fn a_server_without_a_scheme_is_plain_http() {
        assert_eq!(with_scheme("127.0.0.1:50050"), "http://127.0.0.1:50050");
        assert_eq!(
            with_scheme("https://adas.example:443"),
            "https://adas.example:443"
        );
    }
}
