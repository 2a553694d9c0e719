//! Messages framed on standard input: `Content-Length: N`, a blank line, N bytes of JSON.
//! Every line is read with a cap, and a frame that cannot be read (a bad length, a missing
//! one, a header line past its cap) is skipped without losing the ones after it: reading
//! starts again at the next `Content-Length` header, even one glued to the end of a body.

use std::io::{BufRead, Read};

use crate::base::limits::{INPUT_SKIP_BYTES, LSP_HEADER_BYTES, LSP_MESSAGE_BYTES, grouped};

/// What reading one frame gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// A message's text.
    Message(String),
    /// A frame that could not be read, and why; the next one is read normally.
    Skipped(String),
    /// The input ended.
    End,
    /// The input is not frames of lines at all (no end of line in [`INPUT_SKIP_BYTES`]).
    Endless,
}

/// A header line: its text (at most [`LSP_HEADER_BYTES`], without the end of line), or that
/// it was longer (skipped to its end).
enum Line {
    Text(Vec<u8>),
    TooLong,
    End,
    Endless,
}

fn read_line<R: BufRead>(input: &mut R) -> std::io::Result<Line> {
    let mut line = Vec::new();
    let mut skipped = 0usize;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(if line.is_empty() && skipped == 0 {
                Line::End
            } else if skipped > 0 {
                Line::TooLong
            } else {
                Line::Text(line)
            });
        }
        let (part, done, found) = match chunk.iter().position(|b| *b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        if skipped == 0 && line.len() + part.len() <= LSP_HEADER_BYTES {
            line.extend_from_slice(part);
        } else {
            skipped += line.len() + part.len();
            line.clear();
        }
        input.consume(done);
        if found {
            if skipped > 0 {
                return Ok(Line::TooLong);
            }
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(Line::Text(line));
        }
        if skipped > INPUT_SKIP_BYTES {
            return Ok(Line::Endless);
        }
    }
}

/// Where a `Content-Length` header starts in a line, if it holds one (at the start, or after
/// the rest of a body whose length was given too short).
fn content_length_at(line: &str) -> Option<usize> {
    line.to_ascii_lowercase().find("content-length:")
}

/// Reads one frame.
pub fn read_frame<R: BufRead>(input: &mut R) -> std::io::Result<Frame> {
    let mut size: Option<Result<usize, String>> = None;
    let mut headers = 0;
    let mut bad: Option<String> = None;
    loop {
        let line = match read_line(input)? {
            Line::End => {
                return Ok(if headers == 0 {
                    Frame::End
                } else {
                    Frame::Skipped("the input ended inside a message's headers".into())
                });
            }
            Line::Endless => return Ok(Frame::Endless),
            Line::TooLong => {
                bad = Some(format!(
                    "a header line longer than {} bytes",
                    grouped(LSP_HEADER_BYTES as u64)
                ));
                headers += 1;
                continue;
            }
            Line::Text(line) => String::from_utf8_lossy(&line).into_owned(),
        };
        let mut header = line.as_str();
        if let Some(at) = content_length_at(header).filter(|at| *at > 0) {
            // The end of an earlier body, then a new frame: start again from its header.
            header = &header[at..];
            headers = 0;
            size = None;
            bad = None;
        }
        if header.is_empty() {
            if headers == 0 {
                continue;
            }
            break;
        }
        headers += 1;
        if let Some((name, value)) = header.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            let value = value.trim();
            size = Some(
                value
                    .parse::<usize>()
                    .map_err(|_| format!("a `Content-Length` of `{}`", value.escape_debug())),
            );
        }
    }
    if let Some(why) = bad {
        return Ok(Frame::Skipped(why));
    }
    let size = match size {
        None => return Ok(Frame::Skipped("a message without `Content-Length`".into())),
        Some(Err(why)) => return Ok(Frame::Skipped(why)),
        Some(Ok(size)) => size,
    };
    if size > LSP_MESSAGE_BYTES {
        let mut rest = input.take(size as u64);
        std::io::copy(&mut rest, &mut std::io::sink())?;
        return Ok(Frame::Skipped(format!(
            "a message of {} bytes, more than the {} read",
            grouped(size as u64),
            grouped(LSP_MESSAGE_BYTES as u64)
        )));
    }
    let mut body = Vec::with_capacity(size.min(1 << 16));
    let read = input.take(size as u64).read_to_end(&mut body)?;
    if read < size {
        return Ok(Frame::Skipped("the input ended inside a message".into()));
    }
    Ok(String::from_utf8(body).map_or_else(
        |_| Frame::Skipped("a message that is not UTF-8".into()),
        Frame::Message,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<Frame> {
        let mut r = std::io::BufReader::new(input);
        let mut out = Vec::new();
        loop {
            match read_frame(&mut r).expect("read") {
                Frame::End => return out,
                // The server stops there.
                Frame::Endless => {
                    out.push(Frame::Endless);
                    return out;
                }
                f => out.push(f),
            }
        }
    }

    #[test]
    fn a_bad_frame_loses_no_later_one() {
        let input = b"Content-Length: -1\r\n\r\n{}Content-Length: 2\r\n\r\n[]\
            Content-Length: 99999999999999999999999\r\n\r\nxContent-Length: 2\r\n\r\n{}";
        let got = frames(input);
        assert!(
            matches!(&got[0], Frame::Skipped(w) if w.contains("`-1`")),
            "{got:?}"
        );
        assert_eq!(got[1], Frame::Message("[]".into()));
        assert!(matches!(&got[2], Frame::Skipped(_)), "{got:?}");
        assert_eq!(got[3], Frame::Message("{}".into()));
        assert_eq!(got.len(), 4);
    }

    #[test]
    fn a_body_given_too_short_resynchronises_on_the_next_header() {
        let input = b"Content-Length: 3\r\n\r\n{\"a\":1}Content-Length: 2\r\n\r\n{}";
        let got = frames(input);
        assert_eq!(got[0], Frame::Message("{\"a".into()));
        assert_eq!(got[1], Frame::Message("{}".into()));
    }

    #[test]
    fn header_lines_are_capped() {
        let mut input = b"X-Junk: ".to_vec();
        input.extend(std::iter::repeat_n(b'a', LSP_HEADER_BYTES * 3));
        input.extend(b"\r\nContent-Length: 2\r\n\r\n{}Content-Length: 2\r\n\r\n[]");
        let got = frames(&input);
        assert!(
            matches!(&got[0], Frame::Skipped(w) if w.contains("header line")),
            "{got:?}"
        );
        assert_eq!(got[1], Frame::Message("[]".into()));
        let zeros = vec![0u8; INPUT_SKIP_BYTES + 2 * (1 << 16)];
        assert_eq!(frames(&zeros), vec![Frame::Endless]);
    }
}
