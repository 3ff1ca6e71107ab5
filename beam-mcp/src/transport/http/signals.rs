//! The signals that stop [`serve`](super::serve): SIGTERM and SIGINT (ctrl-c) on Unix, ctrl-c
//! elsewhere. The first one starts the shutdown; a second one ends its grace at once.

use std::future::Future;

use tokio::sync::watch;
use tokio::task::JoinHandle;

/// How many stop signals arrived, counted from [`install`](Signals::install).
pub(super) struct Signals {
    count: watch::Receiver<u32>,
    task: JoinHandle<()>,
}

impl Signals {
    /// Takes SIGTERM and SIGINT over from now on. Installed before the server says where it
    /// listens: a signal sent the moment a supervisor reads that line must find this handler,
    /// not the default action, which ends the process at once without answering anyone.
    ///
    /// Must be called inside a tokio runtime.
    pub(super) fn install() -> Signals {
        let (tx, count) = watch::channel(0u32);
        // Registered here, not in the task: a spawned task may first run after the line.
        let mut arrived = arrivals();
        let task = tokio::spawn(async move {
            loop {
                arrived.next().await;
                tx.send_modify(|n| *n = n.saturating_add(1));
            }
        });
        Signals { count, task }
    }

    /// Completes at the `n`th signal; never, when signals cannot be received.
    pub(super) fn nth(&self, n: u32) -> impl Future<Output = ()> + Send + 'static {
        let mut count = self.count.clone();
        async move {
            let arrived = count.wait_for(|c| *c >= n).await.is_ok();
            if !arrived {
                std::future::pending::<()>().await;
            }
        }
    }
}

impl Drop for Signals {
    fn drop(&mut self) {
        // The handlers stay installed (tokio never removes one); only the counting stops.
        self.task.abort();
    }
}

/// The stop signals as they come.
#[cfg(unix)]
struct Arrivals {
    terminate: Option<tokio::signal::unix::Signal>,
    interrupt: Option<tokio::signal::unix::Signal>,
}

#[cfg(unix)]
fn arrivals() -> Arrivals {
    use tokio::signal::unix::{SignalKind, signal};
    let install = |kind: SignalKind, name: &str| match signal(kind) {
        Ok(signal) => Some(signal),
        Err(error) => {
            // Then that signal keeps its default action: the process ends at once.
            tracing::warn!(%error, "cannot handle {name}: it will end the server at once");
            None
        }
    };
    Arrivals {
        terminate: install(SignalKind::terminate(), "SIGTERM"),
        interrupt: install(SignalKind::interrupt(), "SIGINT"),
    }
}

#[cfg(unix)]
impl Arrivals {
    async fn next(&mut self) {
        async fn one(signal: &mut Option<tokio::signal::unix::Signal>) {
            let arrived = match signal {
                Some(signal) => signal.recv().await.is_some(),
                None => false,
            };
            if !arrived {
                // Not installed, or its driver is gone: it never arrives.
                std::future::pending::<()>().await;
            }
        }
        tokio::select! {
            () = one(&mut self.terminate) => {}
            () = one(&mut self.interrupt) => {}
        }
    }
}

#[cfg(not(unix))]
struct Arrivals;

#[cfg(not(unix))]
fn arrivals() -> Arrivals {
    Arrivals
}

#[cfg(not(unix))]
impl Arrivals {
    async fn next(&mut self) {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::warn!(%error, "cannot handle ctrl-c");
            std::future::pending::<()>().await;
        }
    }
}
