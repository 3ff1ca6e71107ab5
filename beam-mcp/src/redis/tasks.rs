//! Tasks shared in Redis: each task's copy in a hash, kept by version in one script, and the
//! relays to the replica that runs it on the server's task channel.

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use redis::Script;
use serde_json::{Map, Value};

use super::Redis;
use crate::store::{SharedTask, StoreError, StoreFuture, TaskDelivery, TaskRelay, TaskShare};

/// Keeps a copy unless the one held ended, or is newer and `ARGV[2]` (this one ended) is not
/// set. `KEYS[1]` is the task's hash; `ARGV`: version, terminal (0/1), owner (hex, or empty),
/// the `tasks/get` body, and how long to keep it in ms.
static SAVE: LazyLock<Script> = LazyLock::new(|| {
    Script::new(
        r"
if redis.call('HGET', KEYS[1], 'terminal') == '1' then return 0 end
local held = tonumber(redis.call('HGET', KEYS[1], 'version') or '-1')
if ARGV[2] ~= '1' and tonumber(ARGV[1]) <= held then return 0 end
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

impl TaskShare for RedisTasks {
    fn save(&self, task: SharedTask) -> StoreFuture<Result<(), StoreError>> {
        let key = self.redis.key(&format!("task:{}", task.id));
        let body = Value::Object(task.detailed).to_string();
        let keep = u64::try_from(task.keep.as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        let owner = hex(task.owner);
        let (version, terminal) = (task.version, u8::from(task.terminal));
        let mut manager = self.redis.manager();
        let saved = self
            .redis
            .timed(super::Command::script("task.save"), async move {
                SAVE.key(key)
                    .arg(version)
                    .arg(terminal)
                    .arg(owner)
                    .arg(body)
                    .arg(keep)
                    .invoke_async::<i64>(&mut manager)
                    .await
            });
        StoreFuture::later(async move { saved.await.map(drop) })
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
