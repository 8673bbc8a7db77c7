//! The pool's use, recorded as the other pooled servers record theirs (read by
//! harness/measure/pool_log.py): for each second the pool was used, the most requests waiting for a
//! connection and the most connections in use.
use std::ops::{Deref, DerefMut};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sqlx::pool::PoolConnection;
use sqlx::{MySql, MySqlPool};
use tokio::io::AsyncWriteExt;

#[derive(Default)]
struct Counts {
    waiting: u32,
    active: u32,
    most_waiting: u32,
    most_active: u32,
}

#[derive(Default)]
pub struct PoolWatch {
    counts: Mutex<Counts>,
}

/// A count held while its guard lives: a request dropped while it waits (its client gone) counts
/// no longer.
struct Held<'a> {
    watch: &'a PoolWatch,
    waiting: bool,
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        self.watch.change(self.waiting, -1);
    }
}

/// A connection of the pool, counted in use until it goes back.
pub struct Watched<'a> {
    connection: PoolConnection<MySql>,
    _in_use: Held<'a>,
}

impl Deref for Watched<'_> {
    type Target = PoolConnection<MySql>;
    fn deref(&self) -> &Self::Target {
        &self.connection
    }
}

impl DerefMut for Watched<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.connection
    }
}

impl PoolWatch {
    fn change(&self, waiting: bool, by: i32) {
        let counts = &mut *self.counts.lock().unwrap();
        let (count, most) = if waiting {
            (&mut counts.waiting, &mut counts.most_waiting)
        } else {
            (&mut counts.active, &mut counts.most_active)
        };
        *count = count.saturating_add_signed(by);
        *most = (*most).max(*count);
    }

    fn hold(&self, waiting: bool) -> Held<'_> {
        self.change(waiting, 1);
        Held { watch: self, waiting }
    }

    /// A connection from the pool, waited for at most the pool's acquire timeout (POOL_TIMEOUT_MS).
    pub async fn acquire(&self, pool: &MySqlPool) -> Result<Watched<'_>, sqlx::Error> {
        let waiting = self.hold(true);
        let connection = pool.acquire().await?;
        drop(waiting);
        Ok(Watched { connection, _in_use: self.hold(false) })
    }

    /// The most of each since the last call, which then starts from what is now.
    fn second(&self) -> (u32, u32) {
        let mut counts = self.counts.lock().unwrap();
        let reading = (counts.most_waiting, counts.most_active);
        (counts.most_waiting, counts.most_active) = (counts.waiting, counts.active);
        reading
    }

    /// Each second the pool was used, a line: epoch second, most waiting, most in use.
    pub async fn record(&self, path: PathBuf) {
        let mut ticks = tokio::time::interval(Duration::from_secs(1));
        ticks.tick().await;
        loop {
            ticks.tick().await;
            let (waiting, active) = self.second();
            if waiting == 0 && active == 0 {
                continue;
            }
            let second = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_secs() - 1;
            let line = format!("{second}\t{waiting}\t{active}\n");
            let written = async {
                let mut file = tokio::fs::OpenOptions::new().create(true).append(true).open(&path).await?;
                file.write_all(line.as_bytes()).await
            };
            if let Err(error) = written.await {
                eprintln!("pool log: {error}");
            }
        }
    }
}
