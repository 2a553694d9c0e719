//! Where the messages for one connection wait to be sent: bounded by their count and by
//! their bytes ([`SERVE_QUEUE`], [`SERVE_QUEUE_BYTES`]), so a client that reads nothing holds
//! a bounded share of the server's memory, whatever it asks for.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::mpsc;

use crate::base::limits::{SERVE_QUEUE, SERVE_QUEUE_BYTES};

/// The sending end: cloned for each table the connection sits at.
#[derive(Debug, Clone)]
pub struct Outbox {
    tx: mpsc::Sender<String>,
    /// The bytes waiting, counted as they are queued and as the writer sends them.
    waiting: Arc<AtomicUsize>,
}

/// The receiving end, read by the connection's writer.
#[derive(Debug)]
pub struct Inbox {
    rx: mpsc::Receiver<String>,
    waiting: Arc<AtomicUsize>,
}

/// The message was not queued: the queue is full (by count or by bytes), or the
/// connection is gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Full;

/// A connection's queue.
pub fn outbox() -> (Outbox, Inbox) {
    with_room(SERVE_QUEUE)
}

/// A queue of room for `messages` (and [`SERVE_QUEUE_BYTES`] bytes), for a client of the
/// hall that is not a connection (tests).
pub fn with_room(messages: usize) -> (Outbox, Inbox) {
    let (tx, rx) = mpsc::channel(messages.max(1));
    let waiting = Arc::new(AtomicUsize::new(0));
    (
        Outbox {
            tx,
            waiting: waiting.clone(),
        },
        Inbox { rx, waiting },
    )
}

impl Outbox {
    /// Counts the bytes in, unless they would pass the allowance.
    fn reserve(&self, n: usize) -> Result<(), Full> {
        self.waiting
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |w| {
                w.checked_add(n).filter(|&t| t <= SERVE_QUEUE_BYTES)
            })
            .map(|_| ())
            .map_err(|_| Full)
    }

    fn release(&self, n: usize) {
        self.waiting.fetch_sub(n, Ordering::SeqCst);
    }

    /// Queues a message now, or says it cannot.
    pub fn try_send(&self, msg: String) -> Result<(), Full> {
        let n = msg.len();
        self.reserve(n)?;
        self.tx.try_send(msg).map_err(|_| {
            self.release(n);
            Full
        })
    }

    /// Queues a message, waiting for room by count; refused at once past the bytes allowed.
    pub async fn send(&self, msg: String) -> Result<(), Full> {
        let n = msg.len();
        self.reserve(n)?;
        self.tx.send(msg).await.map_err(|_| {
            self.release(n);
            Full
        })
    }
}

impl Inbox {
    /// The next message to send, its bytes no longer counted as waiting.
    pub async fn recv(&mut self) -> Option<String> {
        let m = self.rx.recv().await?;
        self.waiting.fetch_sub(m.len(), Ordering::SeqCst);
        Some(m)
    }

    /// The next message if one is waiting now (or why none is: none yet, or none ever, the
    /// sending ends all gone).
    pub fn try_recv(&mut self) -> Result<String, mpsc::error::TryRecvError> {
        let m = self.rx.try_recv()?;
        self.waiting.fetch_sub(m.len(), Ordering::SeqCst);
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_queue_holds_no_more_bytes_than_allowed_and_frees_them_as_they_are_sent() {
        let (out, mut inbox) = outbox();
        let big = "x".repeat(SERVE_QUEUE_BYTES / 2);
        assert_eq!(out.try_send(big.clone()), Ok(()));
        assert_eq!(out.try_send(big.clone()), Ok(()));
        // Two halves fill it: a byte more is refused, and nothing was queued for it.
        assert_eq!(out.try_send("y".into()), Err(Full));
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        rt.block_on(async {
            assert_eq!(out.send("y".into()).await, Err(Full));
            assert_eq!(inbox.recv().await.map(|m| m.len()), Some(big.len()));
            // Sent: its room is free again.
            assert_eq!(out.send("y".into()).await, Ok(()));
            assert_eq!(inbox.recv().await.map(|m| m.len()), Some(big.len()));
            assert_eq!(inbox.recv().await.as_deref(), Some("y"));
        });
        // By count too: small messages fill the queue at its length.
        for _ in 0..SERVE_QUEUE {
            assert_eq!(out.try_send("z".into()), Ok(()));
        }
        assert_eq!(out.try_send("z".into()), Err(Full));
    }
}
