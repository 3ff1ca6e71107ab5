//! Tasks shared in Redis: each task's copy in a hash, kept by version in one script, and the
//! relays to the replica that runs it on the server's task channel.

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use redis::Script;
use serde_json::{Map, Value};

use super::Redis;
use crate::store::{SharedTask, StoreError, StoreFuture, TaskDelivery, TaskRelay, TaskShare};

/// Keeps a copy unless the one held ended, or is newer and `ARGV[2]` (this one ended) is not
/// set. `KEYS[1]` is the task's hash, `KEYS[2]` and `KEYS[3]` its owner's sets of kept and of
/// running tasks (each task scored by when its copy expires, in ms on Redis's clock); `ARGV`:
/// version, terminal (0/1), owner (hex, or empty), the `tasks/get` body, how long to keep it
/// in ms, and the task's id. A task that ended leaves its owner's running set.
static SAVE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('HGET', KEYS[1], 'terminal') == '1' then return 0 end
local held = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
if ARGV[2] ~= '1' and tonumber(ARGV[1]) <= held then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'terminal', ARGV[2], 'owner', ARGV[3], 'body', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
if ARGV[3] ~= '' then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('ZADD', KEYS[2], 'XX', now + tonumber(ARGV[5]), ARGV[6])
  if ARGV[2] == '1' then redis.call('ZREM', KEYS[3], ARGV[6]) end
  -- The kept set lives as long as its longest-kept task.
  if redis.call('EXISTS', KEYS[2]) == 1 and redis.call('PTTL', KEYS[2]) < tonumber(ARGV[5]) then
    redis.call('PEXPIRE', KEYS[2], ARGV[5])
  end
end
return 1
",
    )
});

/// A new task's first copy, unless its owner keeps `ARGV[7]` tasks or runs `ARGV[8]` already:
/// the keys and the first six arguments as [`SAVE`]'s.
static OPEN: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[7]) or redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[8]) then
  return 0
end
local until_ms = now + tonumber(ARGV[5])
redis.call('ZADD', KEYS[2], until_ms, ARGV[6])
redis.call('ZADD', KEYS[3], until_ms, ARGV[6])
-- A set lives as long as its longest-kept task: never shortened by a shorter one.
for i = 2, 3 do
  if redis.call('PTTL', KEYS[i]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'terminal', ARGV[2], 'owner', ARGV[3], 'body', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
",
    )
});

/// The server's tasks in Redis (`beam-mcp:{server}:task:{id}`), readable, answerable and
/// cancellable through every replica; relays travel on `beam-mcp:{server}:tasks`. Built by
/// [`Redis::tasks`]; give it to [`ServerBuilder::task_share`](crate::ServerBuilder::task_share).
///
/// ```no_run
/// # async fn run(redis: beam_mcp::redis::Redis) {
/// let server = beam_mcp::Server::builder().task_share(redis.tasks()).build().unwrap();
/// # let _ = server;
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct RedisTasks {
    redis: Redis,
    channel: Arc<str>,
}

impl Redis {
    /// This server's tasks, shared across the replicas using this Redis.
    pub fn tasks(&self) -> RedisTasks {
        RedisTasks {
            redis: self.clone(),
            channel: self.key("tasks").into(),
        }
    }
}

pub(super) fn hex(owner: Option<[u8; 32]>) -> String {
    owner
        .map(|digest| digest.iter().map(|b| format!("{b:02x}")).collect())
        .unwrap_or_default()
}

pub(super) fn unhex(text: &str) -> Option<Option<[u8; 32]>> {
    if text.is_empty() {
        return Some(None);
    }
    let mut digest = [0u8; 32];
    if text.len() != 64 {
        return None;
    }
    for (i, byte) in digest.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(Some(digest))
}

impl RedisTasks {
    /// The keys ([`SAVE`]'s and [`OPEN`]'s: the copy, its owner's kept and running sets) and the
    /// first six arguments of a task's copy.
    fn copy_of(&self, task: SharedTask) -> ([String; 3], [String; 6]) {
        let owner = hex(task.owner);
        let keys = [
            self.redis.key(&format!("task:{}", task.id)),
            self.redis.key(&format!("tasks-of:{owner}")),
            self.redis.key(&format!("tasks-running-of:{owner}")),
        ];
        let keep = u64::try_from(task.keep.as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        let args = [
            task.version.to_string(),
            u8::from(task.terminal).to_string(),
            owner,
            Value::Object(task.detailed).to_string(),
            keep.to_string(),
            task.id,
        ];
        (keys, args)
    }
}

impl TaskShare for RedisTasks {
    fn save(&self, task: SharedTask) -> StoreFuture<Result<(), StoreError>> {
        let (keys, args) = self.copy_of(task);
        let mut manager = self.redis.manager();
        let saved = self
            .redis
            .timed(super::Command::script("task.save"), async move {
                let mut call = SAVE.prepare_invoke();
                call.key(&keys[0]).key(&keys[1]).key(&keys[2]);
                for arg in &args {
                    call.arg(arg);
                }
                call.invoke_async::<i64>(&mut manager).await
            });
        StoreFuture::later(async move { saved.await.map(drop) })
    }

    fn open(
        &self,
        task: SharedTask,
        kept: usize,
        running: usize,
    ) -> StoreFuture<Result<bool, StoreError>> {
        let (keys, args) = self.copy_of(task);
        let mut manager = self.redis.manager();
        let opened = self
            .redis
            .timed(super::Command::script("task.open"), async move {
                let mut call = OPEN.prepare_invoke();
                call.key(&keys[0]).key(&keys[1]).key(&keys[2]);
                for arg in &args {
                    call.arg(arg);
                }
                call.arg(kept).arg(running);
                call.invoke_async::<i64>(&mut manager).await
            });
        StoreFuture::later(async move { opened.await.map(|kept| kept == 1) })
    }

    fn load(&self, id: &str) -> StoreFuture<Result<Option<SharedTask>, StoreError>> {
        let key = self.redis.key(&format!("task:{id}"));
        let id = id.to_owned();
        let mut manager = self.redis.manager();
        let read = self
            .redis
            .timed(super::Command::plain("HMGET"), async move {
                redis::cmd("HMGET")
                    .arg(&key)
                    .arg(&["version", "terminal", "owner", "body"])
                    .query_async::<(Option<u64>, Option<String>, Option<String>, Option<String>)>(
                        &mut manager,
                    )
                    .await
            });
        StoreFuture::later(async move {
            let (Some(version), Some(terminal), Some(owner), Some(body)) = read.await? else {
                return Ok(None);
            };
            let held = (
                unhex(&owner),
                serde_json::from_str::<Map<String, Value>>(&body),
            );
            let (Some(owner), Ok(detailed)) = held else {
                return Err(StoreError::unavailable(format!(
                    "redis: task {id} is not a record this version wrote"
                )));
            };
            Ok(Some(SharedTask {
                id,
                owner,
                version,
                terminal: terminal == "1",
                keep: Duration::ZERO,
                detailed,
            }))
        })
    }

    fn relay(&self, id: &str, relay: TaskRelay) -> StoreFuture<Result<(), StoreError>> {
        let payload = match relay {
            TaskRelay::Answer(responses) => format!("answer {id} {}", Value::Object(responses)),
            TaskRelay::Cancel => format!("cancel {id}"),
        };
        self.redis.publish(&self.channel, &payload)
    }

    fn deliver_to(&self, delivery: TaskDelivery) {
        if self.redis.shared.tasks.set(delivery).is_err() {
            tracing::warn!("Redis tasks were given to a second server; they deliver to the first");
        }
    }
}

/// A relay as published: `answer {id} {json}` or `cancel {id}` (the replica's id taken off).
pub(super) fn relayed(text: &str) -> Option<(&str, TaskRelay)> {
    let (verb, rest) = text.split_once(' ')?;
    match verb {
        "cancel" => Some((rest, TaskRelay::Cancel)),
        "answer" => {
            let (id, json) = rest.split_once(' ')?;
            let responses = serde_json::from_str::<Map<String, Value>>(json).ok()?;
            Some((id, TaskRelay::Answer(responses)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relays_and_owners_read_back() {
        assert_eq!(relayed("cancel t1"), Some(("t1", TaskRelay::Cancel)));
        let (id, relay) = relayed(r#"answer t2 {"k": {"action": "accept"}}"#).unwrap();
        assert_eq!(id, "t2");
        assert!(matches!(relay, TaskRelay::Answer(map) if map.contains_key("k")));
        assert_eq!(relayed("answer t2 not-json"), None);
        assert_eq!(relayed("shout t3"), None);
        assert_eq!(unhex(&hex(Some([9; 32]))), Some(Some([9; 32])));
        assert_eq!(unhex(""), Some(None));
        assert_eq!(unhex("zz"), None);
    }
}
