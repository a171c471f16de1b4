//! adas-testkit: boots real things for tests — a private `redis-server` on a free
//! loopback port, and the suite's binaries on `127.0.0.1:0` — and tears them down
//! on drop. Never touches the machine's own Redis on 6379.
//!
//! [`model`] is a scripted model endpoint (a provider's wire format, its failures).
//!
//! Waiting is always on a condition (a PING answered, a readiness line printed),
//! bounded by a deadline, never a bare sleep.

pub mod model;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long a spawned process gets to become ready.
const READY_TIMEOUT: Duration = Duration::from_secs(30);

/// The line prefix every suite binary prints on stdout once it listens.
pub const LISTENING_PREFIX: &str = "listening on ";

/// A private `redis-server` that lives as long as this value.
#[derive(Debug)]
pub struct RedisServer {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl RedisServer {
    /// Starts `redis-server` (from `ADAS_TEST_REDIS_SERVER` or `PATH`) on a free
    /// loopback port with persistence off, and waits until it answers PING.
    ///
    /// # Panics
    /// When no redis-server can be started: tests need the real thing.
    pub fn start() -> Self {
        Self::start_with(&[], free_port)
    }

    /// Starts one with `extra` arguments on a port from `pick_port`.
    fn start_with(extra: &[&str], pick_port: fn() -> u16) -> Self {
        let binary =
            std::env::var("ADAS_TEST_REDIS_SERVER").unwrap_or_else(|_| "redis-server".into());
        let mut last_error = String::new();
        // A free port can be taken between our probe and redis' bind: retry a few times.
        for _ in 0..5 {
            let port = pick_port();
            let dir = scratch_dir(&format!("redis-{port}"));
            let child = Command::new(&binary)
                .args([
                    "--port",
                    &port.to_string(),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                ])
                .args(extra)
                .arg("--dir")
                .arg(&dir)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn();
            let mut child = match child {
                Ok(child) => child,
                Err(error) => panic!(
                    "cannot start `{binary}` ({error}); install redis-server or set ADAS_TEST_REDIS_SERVER"
                ),
            };
            let deadline = Instant::now() + READY_TIMEOUT;
            while Instant::now() < deadline {
                if let Ok(Some(status)) = child.try_wait() {
                    last_error = format!("redis-server exited with {status}");
                    break;
                }
                if ping(port) {
                    return Self { child, port, dir };
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = child.kill();
            let _ = child.wait();
            if last_error.is_empty() {
                last_error = "redis-server did not answer PING in time".into();
            }
        }
        panic!("cannot start a private redis-server: {last_error}");
    }

    /// `redis://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Sends one raw command (space-separated words) and returns the raw reply text.
    pub fn raw_command(&self, command: &str) -> String {
        raw_command(self.port, command)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A private Redis Cluster of three primaries (no replicas), every slot
/// assigned, that lives as long as this value.
#[derive(Debug)]
pub struct RedisCluster {
    nodes: Vec<RedisServer>,
}

impl RedisCluster {
    /// Starts three `redis-server --cluster-enabled yes` on free loopback ports,
    /// joins them with `redis-cli --cluster create` (from `ADAS_TEST_REDIS_CLI`
    /// or `PATH`) and waits until every node reports `cluster_state:ok`.
    ///
    /// # Panics
    /// When the cluster cannot be formed: tests need the real thing.
    pub fn start() -> Self {
        let nodes: Vec<RedisServer> = (0..3)
            .map(|_| {
                RedisServer::start_with(
                    &[
                        "--cluster-enabled",
                        "yes",
                        "--cluster-config-file",
                        "nodes.conf",
                        "--cluster-node-timeout",
                        "5000",
                    ],
                    cluster_port,
                )
            })
            .collect();
        let cli = std::env::var("ADAS_TEST_REDIS_CLI").unwrap_or_else(|_| "redis-cli".into());
        let output = Command::new(&cli)
            .args(["--cluster", "create"])
            .args(nodes.iter().map(|node| format!("127.0.0.1:{}", node.port)))
            .args(["--cluster-replicas", "0", "--cluster-yes"])
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|error| panic!("cannot run `{cli}` ({error}); install redis-tools"));
        assert!(
            output.status.success(),
            "redis-cli --cluster create failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let deadline = Instant::now() + READY_TIMEOUT;
        for node in &nodes {
            while !node
                .raw_command("CLUSTER INFO")
                .contains("cluster_state:ok")
            {
                assert!(
                    Instant::now() < deadline,
                    "the cluster did not reach cluster_state:ok in time"
                );
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        Self { nodes }
    }

    /// The seed nodes, comma-separated `redis://127.0.0.1:PORT/` (what
    /// `--redis-url` takes for a cluster).
    pub fn url(&self) -> String {
        self.nodes
            .iter()
            .map(RedisServer::url)
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The nodes.
    pub fn nodes(&self) -> &[RedisServer] {
        &self.nodes
    }
}

/// A free port whose cluster bus port (+10000) is free too.
fn cluster_port() -> u16 {
    loop {
        let port = free_port();
        if port < 55_000 && TcpListener::bind(("127.0.0.1", port + 10_000)).is_ok() {
            return port;
        }
    }
}

fn ping(port: u16) -> bool {
    try_raw_command(port, "PING").is_ok_and(|reply| reply.starts_with("+PONG"))
}

fn raw_command(port: u16, command: &str) -> String {
    try_raw_command(port, command)
        .unwrap_or_else(|error| panic!("redis command `{command}` failed: {error}"))
}

fn try_raw_command(port: u16, command: &str) -> std::io::Result<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let words: Vec<&str> = command.split_whitespace().collect();
    let mut request = format!("*{}\r\n", words.len());
    for word in words {
        request.push_str(&format!("${}\r\n{}\r\n", word.len(), word));
    }
    stream.write_all(request.as_bytes())?;
    let mut buffer = [0u8; 65536];
    let read = stream.read(&mut buffer)?;
    Ok(String::from_utf8_lossy(&buffer[..read]).into_owned())
}

/// A port that was free a moment ago.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("bind 127.0.0.1:0")
}

/// A fresh, empty directory under the system temp dir.
pub fn scratch_dir(label: &str) -> PathBuf {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("adas-test-{}-{label}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// The project's shipped templates (`skill-templates/`), for the services a
/// test spawns: a service refuses to start without templates.
pub fn templates_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../skill-templates")
}

/// The project's `skill-templates/`, as a `--templates-dir` argument.
pub fn templates_arg() -> String {
    templates_dir().to_str().expect("utf-8 path").to_owned()
}

/// Path of a binary built from this workspace (same target dir and profile as the
/// running test). The test command builds every binary before the tests run.
///
/// # Panics
/// When the binary has not been built.
pub fn workspace_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("current exe");
    // target/<profile>/deps/<test-binary> -> target/<profile>/<name>
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target profile dir");
    let path = profile_dir.join(name);
    assert!(
        path.exists(),
        "{} is not built: run `cargo build --workspace --bins` first (the README test command does)",
        path.display()
    );
    path
}

/// A suite binary running as a child process; killed on drop.
#[derive(Debug)]
pub struct SpawnedService {
    child: Child,
    addr: SocketAddr,
    /// The web console's address, when the process announced one.
    console: std::sync::Arc<std::sync::Mutex<Option<SocketAddr>>>,
}

impl SpawnedService {
    /// Spawns `binary` with `args` plus `--listen 127.0.0.1:0` and waits for its
    /// readiness line (`listening on ADDR`) on stdout.
    ///
    /// # Panics
    /// When the process exits or stays silent past the deadline.
    pub fn spawn(binary: &Path, args: &[&str], envs: &[(&str, &str)]) -> Self {
        Self::spawn_logged(binary, args, envs, None)
    }

    /// [`Self::spawn`] with its log (stderr) written to `log` when given, so a
    /// test can read what it logged.
    pub fn spawn_logged(
        binary: &Path,
        args: &[&str],
        envs: &[(&str, &str)],
        log: Option<&Path>,
    ) -> Self {
        let stderr = match log {
            Some(path) => Stdio::from(
                std::fs::File::create(path)
                    .unwrap_or_else(|error| panic!("{}: {error}", path.display())),
            ),
            None => Stdio::inherit(),
        };
        let mut command = Command::new(binary);
        command
            .args(args)
            .args(["--listen", "127.0.0.1:0"])
            .env("ADAS_LOG_FORMAT", "json")
            .env("ADAS_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr);
        for (key, value) in envs {
            command.env(key, value);
        }
        let mut child = command
            .spawn()
            .unwrap_or_else(|error| panic!("spawn {}: {error}", binary.display()));
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, receiver) = mpsc::channel();
        let console = std::sync::Arc::new(std::sync::Mutex::new(None));
        let announced = console.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some(addr) = line.strip_prefix(LISTENING_PREFIX) {
                    let _ = sender.send(addr.trim().to_owned());
                } else if let Some(addr) = line.strip_prefix("console on http://") {
                    *announced
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) =
                        addr.trim().parse().ok();
                }
            }
        });
        match receiver.recv_timeout(READY_TIMEOUT) {
            Ok(addr) => Self {
                child,
                addr: addr
                    .parse()
                    .expect("readiness line carries a socket address"),
                console,
            },
            Err(_) => {
                let _ = child.kill();
                let status = child.wait().ok();
                panic!(
                    "{} did not become ready (exit status {status:?})",
                    binary.display()
                );
            }
        }
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Where its web console listens (`console on http://ADDR`), if it serves one.
    pub fn console_addr(&self) -> Option<SocketAddr> {
        *self
            .console
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `http://ADDR`, for a tonic channel.
    pub fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Process id, e.g. to send it a signal.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits up to `deadline` for the process to exit and returns its exit code
    /// (None when killed by a signal).
    ///
    /// # Panics
    /// When it is still running at the deadline (it is killed first), so a
    /// shutdown that hangs fails the test instead of hanging it.
    pub fn wait(mut self, deadline: Duration) -> Option<i32> {
        let until = std::time::Instant::now() + deadline;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for child") {
                return status.code();
            }
            if std::time::Instant::now() > until {
                let _ = self.child.kill();
                panic!("the process did not exit within {deadline:?}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for SpawnedService {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A private PKI for TLS tests, made with the `openssl` command (no crate):
/// a CA, a server certificate for `localhost` and 127.0.0.1, and client
/// certificates signed by the CA or by an unrelated one.
#[derive(Debug)]
pub struct TestPki {
    dir: PathBuf,
}

impl TestPki {
    /// A CA and a server certificate under a scratch dir (for serving and, as a
    /// service calling its peers, for client authentication).
    ///
    /// # Panics
    /// When `openssl` is missing or fails.
    pub fn new(label: &str) -> Self {
        let pki = Self {
            dir: scratch_dir(label),
        };
        pki.ca("ca");
        pki.ca("rogue-ca");
        pki.signed(
            "server",
            "ca",
            "subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth",
        );
        pki
    }

    /// A client certificate named `name` signed by the CA (or, `rogue`, by the
    /// unrelated CA); returns its PEM path.
    pub fn client(&self, name: &str, rogue: bool) -> PathBuf {
        self.signed(
            name,
            if rogue { "rogue-ca" } else { "ca" },
            "extendedKeyUsage=clientAuth",
        );
        self.cert(name)
    }

    /// `<name>.pem`.
    pub fn cert(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.pem"))
    }

    /// `<name>.key`.
    pub fn key(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.key"))
    }

    fn openssl(&self, args: &[&str]) {
        let output = Command::new("openssl")
            .args(args)
            .current_dir(&self.dir)
            .output()
            .expect("the openssl command (e2e/test.sh installs it)");
        assert!(output.status.success(), "openssl {args:?}: {output:?}");
    }

    fn ca(&self, name: &str) {
        self.openssl(&[
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-days",
            "2",
            "-subj",
            &format!("/CN={name}"),
            "-keyout",
            &format!("{name}.key"),
            "-out",
            &format!("{name}.pem"),
        ]);
    }

    fn signed(&self, name: &str, ca: &str, extensions: &str) {
        let ext = self.dir.join(format!("{name}.ext"));
        std::fs::write(&ext, extensions).expect("write the extensions");
        self.openssl(&[
            "req",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-subj",
            &format!("/CN={name}"),
            "-keyout",
            &format!("{name}.key"),
            "-out",
            &format!("{name}.csr"),
        ]);
        self.openssl(&[
            "x509",
            "-req",
            "-in",
            &format!("{name}.csr"),
            "-CA",
            &format!("{ca}.pem"),
            "-CAkey",
            &format!("{ca}.key"),
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            ext.to_str().expect("utf-8 path"),
            "-out",
            &format!("{name}.pem"),
        ]);
    }
}

/// A TCP server on loopback that accepts connections and never answers (a
/// hung MCP server), counting what it accepted.
#[derive(Debug)]
pub struct SilentServer {
    addr: SocketAddr,
    accepted: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl SilentServer {
    /// Starts it on a free port; it lives as long as the test process.
    ///
    /// # Panics
    /// When no loopback port can be bound.
    pub fn start() -> Self {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let addr = listener.local_addr().expect("a bound address");
        let accepted = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = accepted.clone();
        std::thread::spawn(move || {
            let mut held = Vec::new();
            for stream in listener.incoming() {
                held.push(stream);
                counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        });
        Self { addr, accepted }
    }

    /// Its address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Waits until it has accepted a connection.
    pub async fn accepted_one(&self) {
        while self.accepted.load(std::sync::atomic::Ordering::SeqCst) == 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// The Python with the MCP SDK (`ADAS_PYTHON`, else the venv `e2e/test.sh`
/// prepares in `~/.cache/adas-venv`), for tests that run Python peers.
///
/// # Panics
/// When neither is there.
pub fn python_sdk() -> PathBuf {
    if let Ok(python) = std::env::var("ADAS_PYTHON") {
        return PathBuf::from(python);
    }
    let venv = PathBuf::from(std::env::var("HOME").unwrap_or_default())
        .join(".cache/adas-venv/bin/python");
    assert!(
        venv.exists(),
        "the Python MCP SDK venv is missing: run `bash e2e/test.sh` (it installs it) or set ADAS_PYTHON"
    );
    venv
}
