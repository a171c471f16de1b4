//! The suite under attack, shared by the security tests: `adas up` with an
//! auth file made by `adas auth key create`, a private Redis and the demo MCP
//! server's executions log (the invariants are proved when it stops).

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use adas_e2e::invariants::CheckedStore;
use adas_proto::pb;
use adas_runtime::auth::{AuthChannel, Credentials};
use adas_testkit::{SpawnedService, scratch_dir, workspace_binary};
use pb::dal_agent_service_client::DalAgentServiceClient;
use pb::gate_service_client::GateServiceClient;
use pb::orchestrator_service_client::OrchestratorServiceClient;
use pb::skill_registry_service_client::SkillRegistryServiceClient;
use tonic::Code;
use tonic::transport::Channel;

/// The principals of the suite under attack, by name: (tenant, roles).
pub const PRINCIPALS: &[(&str, &str, &[&str])] = &[
    ("root", "acme", &["admin"]),
    ("alice", "acme", &["user"]),
    ("bob", "acme", &["user"]),
    ("sam", "acme", &["supervisor"]),
    // Holds the approver role and starts jobs: may not approve its own.
    ("mallory", "acme", &["user", "supervisor"]),
    ("eve", "globex", &["admin", "operator"]),
    // Answers others' asks and holds the approver role.
    ("olga", "acme", &["operator", "supervisor"]),
    // One principal per role in the other tenant, and its own service key.
    ("g-admin", "globex", &["admin"]),
    ("g-operator", "globex", &["operator"]),
    ("g-user", "globex", &["user"]),
    ("g-supervisor", "globex", &["supervisor"]),
    ("g-service", "globex", &["service"]),
];

/// Claims mapped to some principals' keys (`--claim`), what skills read as
/// `${principal.email}`.
pub const CLAIMS: &[(&str, &str)] = &[
    ("alice", "email=alice@company.com"),
    ("bob", "email=bob@gmail.com"),
];

pub struct Suite {
    pub service: SpawnedService,
    pub keys: HashMap<&'static str, String>,
    pub root: std::path::PathBuf,
    /// Dropped after the service: proves the invariants over what it did.
    pub store: CheckedStore,
}

pub fn create_key(auth_file: &Path, name: &str, tenant: &str, roles: &[&str]) -> String {
    let mut command = Command::new(workspace_binary("adas"));
    command.args([
        "auth",
        "key",
        "create",
        "--name",
        name,
        "--tenant",
        tenant,
        "--auth-file",
        auth_file.to_str().unwrap(),
    ]);
    for role in roles {
        command.args(["--role", role]);
    }
    for (_, claim) in CLAIMS.iter().filter(|(who, _)| *who == name) {
        command.args(["--claim", claim]);
    }
    let output = command.output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let key = String::from_utf8(output.stdout).unwrap().trim().to_owned();
    assert!(key.starts_with("adas_"), "{key}");
    key
}

impl Suite {
    pub fn start(label: &str) -> Self {
        // Generous quotas: the tests poll; quotas have their own test.
        Self::start_with(label, &["--rate-per-principal", "1000"])
    }

    pub fn start_with(label: &str, extra: &[&str]) -> Self {
        Self::start_with_env(label, extra, &[])
    }

    pub fn start_with_env(label: &str, extra: &[&str], env: &[(&str, &str)]) -> Self {
        Self::start_logged(label, extra, env, false)
    }

    /// [`Self::start_with_env`]; with `logged`, what the suite logs goes to
    /// a file [`Self::log`] reads instead of the test's stderr.
    pub fn start_logged(label: &str, extra: &[&str], env: &[(&str, &str)], logged: bool) -> Self {
        let root = scratch_dir(label);
        let auth_file = root.join("auth.json");
        let keys: HashMap<&'static str, String> = PRINCIPALS
            .iter()
            .map(|(name, tenant, roles)| (*name, create_key(&auth_file, name, tenant, roles)))
            .collect();
        let text = std::fs::read_to_string(&auth_file).unwrap();
        assert!(
            keys.values()
                .all(|key: &String| !text.contains(key.as_str())),
            "keys are kept only as digests"
        );
        let mut args = vec!["--auth-file", auth_file.to_str().unwrap()];
        args.extend_from_slice(extra);
        let store = CheckedStore::start(&root);
        // Everything it logs, for tests that read it (`log()`).
        let log = root.join("adas.log");
        let service = store.spawn_up_logged(&root, &args, env, logged.then_some(log.as_path()));
        Self {
            service,
            keys,
            root,
            store,
        }
    }

    pub async fn channel(&self, who: Option<&str>) -> AuthChannel {
        self.channel_to(&self.service, who).await
    }

    /// A channel to `service` (another process on the suite's store and
    /// auth file) as `who`.
    pub async fn channel_to(&self, service: &SpawnedService, who: Option<&str>) -> AuthChannel {
        let channel = Channel::from_shared(service.endpoint())
            .unwrap()
            .connect()
            .await
            .unwrap();
        let key = who.map(|who| self.keys[who].as_str());
        AuthChannel::new(channel, Credentials::new(key).unwrap())
    }

    pub async fn jobs(&self, who: &str) -> OrchestratorServiceClient<AuthChannel> {
        OrchestratorServiceClient::new(self.channel(Some(who)).await)
    }

    pub async fn gate(&self, who: &str) -> GateServiceClient<AuthChannel> {
        GateServiceClient::new(self.channel(Some(who)).await)
    }

    pub async fn dal(&self, who: &str) -> DalAgentServiceClient<AuthChannel> {
        DalAgentServiceClient::new(self.channel(Some(who)).await)
    }

    pub async fn registry(&self, who: &str) -> SkillRegistryServiceClient<AuthChannel> {
        SkillRegistryServiceClient::new(self.channel(Some(who)).await)
    }

    /// `tool` of skill `slag` as ResolveTools lists it to `who`.
    pub async fn resolved_tool(&self, who: &str, slag: &str, tool: &str) -> pb::ToolSpec {
        let resolved = self
            .registry(who)
            .await
            .resolve_tools(pb::ResolveToolsRequest {
                skill: format!("skills/{slag}"),
            })
            .await
            .unwrap()
            .into_inner();
        resolved
            .tools
            .into_iter()
            .find(|listed| listed.name == tool)
            .unwrap_or_else(|| panic!("{slag} lists no {tool}"))
    }

    /// Replaces skill `slag` (as root, with its current etag) by what `edit`
    /// makes of its source.
    pub async fn edit_skill(&self, slag: &str, edit: impl FnOnce(&str) -> String) {
        edit_skill_on(&mut self.registry("root").await, slag, edit).await;
    }

    /// Starts `program` on cs-tier-1 as `who` and waits until it pauses or ends.
    pub async fn job(&self, who: &str, program: &str) -> pb::Job {
        let mut jobs = self.jobs(who).await;
        let job = jobs
            .start_job(pb::StartJobRequest {
                skill: "skills/cs-tier-1".into(),
                program: program.into(),
                ..Default::default()
            })
            .await
            .unwrap()
            .into_inner();
        self.settle(who, &job.name).await
    }

    pub async fn settle(&self, who: &str, name: &str) -> pb::Job {
        let mut jobs = self.jobs(who).await;
        for _ in 0..500 {
            let job = jobs
                .get_job(pb::GetJobRequest { name: name.into() })
                .await
                .unwrap()
                .into_inner();
            let status = pb::JobStatus::try_from(job.status).unwrap();
            if !matches!(status, pb::JobStatus::Queued | pb::JobStatus::Running) {
                return job;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("job {name} did not settle");
    }

    /// The process still answers.
    pub async fn alive(&self) {
        let mut health = tonic_health::pb::health_client::HealthClient::new(
            Channel::from_shared(self.service.endpoint())
                .unwrap()
                .connect()
                .await
                .unwrap(),
        );
        health
            .check(tonic_health::pb::HealthCheckRequest::default())
            .await
            .expect("the suite is alive");
    }
}

pub fn code<T: std::fmt::Debug>(result: Result<tonic::Response<T>, tonic::Status>) -> Code {
    result.expect_err("the call must be refused").code()
}

pub const REFUND_900: &str = r#"process_refund(order_id="ORD-1", amount=900)"#;

impl Suite {
    /// What the demo server executed of `tool`, by its own log.
    pub fn executed(&self, tool: &str) -> Vec<serde_json::Value> {
        adas_e2e::invariants::executions(self.store.executions_log())
            .into_iter()
            .filter(|execution| execution["tool"] == tool)
            .collect()
    }

    /// What the suite logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.root.join("adas.log")).unwrap_or_default()
    }

    /// Redis keys whose name contains `needle`.
    pub fn keys_with(&self, needle: &str) -> Vec<String> {
        let client = redis::Client::open(self.store.redis_url()).unwrap();
        let mut connection = client.get_connection().unwrap();
        redis::cmd("KEYS")
            .arg(format!("*{needle}*"))
            .query(&mut connection)
            .unwrap()
    }

    /// Jobs stored, of any tenant and skill.
    pub fn stored_jobs(&self) -> usize {
        self.keys_with(":job:").len()
    }
}

/// Replaces skill `slag` (with its current etag), through `registry`, by
/// what `edit` makes of its source.
pub async fn edit_skill_on(
    registry: &mut SkillRegistryServiceClient<AuthChannel>,
    slag: &str,
    edit: impl FnOnce(&str) -> String,
) {
    let current = registry
        .get_skill(pb::GetSkillRequest {
            name: format!("skills/{slag}"),
        })
        .await
        .unwrap()
        .into_inner();
    let source = edit(&current.source);
    assert_ne!(source, current.source, "the edit changes the skill");
    registry
        .put_skill(pb::PutSkillRequest {
            name: format!("skills/{slag}"),
            source,
            etag: current.etag,
            ..Default::default()
        })
        .await
        .unwrap();
}
