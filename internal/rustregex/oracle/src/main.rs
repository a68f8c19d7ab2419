//! The Rust regex oracle for hookx's tests: one JSON line in,
//! {"p": pattern, "s": [subject, ...]}, one JSON line out:
//! {"ok": true, "m": [bool, ...]} or {"ok": false, "err": "..."}.
//! The pattern is compiled with regex::Regex::new and each subject is tested
//! with is_match, as Codex's hooks (codex-rs/hooks/src/events/common.rs,
//! validate_matcher_pattern and matches_matcher) do.
//!
//! It depends on the regex crate alone (the Debian registry has no
//! serde_json without some 70 more packages), so it reads the one request
//! shape Go's encoding/json writes.

use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    for line in stdin.lock().lines() {
        let line = line.expect("reading stdin");
        let answer = match parse_request(&line) {
            Ok((p, s)) => answer(&p, &s),
            Err(e) => format!("{{\"ok\":false,\"err\":{},\"bad\":true}}", quote(&e)),
        };
        out.write_all(answer.as_bytes()).unwrap();
        out.write_all(b"\n").unwrap();
        out.flush().unwrap();
    }
}

fn answer(p: &str, s: &[String]) -> String {
    match regex::Regex::new(p) {
        Ok(re) => {
            let m: Vec<&str> = s.iter().map(|s| if re.is_match(s) { "true" } else { "false" }).collect();
            format!("{{\"ok\":true,\"m\":[{}]}}", m.join(","))
        }
        Err(e) => format!("{{\"ok\":false,\"err\":{}}}", quote(&e.to_string())),
    }
}

fn quote(s: &str) -> String {
    let mut q = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            c if (c as u32) < 0x20 => q.push_str(&format!("\\u{:04x}", c as u32)),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

struct Reader<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Reader<'a> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\r' | b'\n') {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> Result<(), String> {
        self.ws();
        if self.b.get(self.i) == Some(&c) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("expected {:?} at byte {}", c as char, self.i))
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.b.get(self.i).copied()
    }
    fn hex4(&mut self) -> Result<u32, String> {
        let h = self.b.get(self.i..self.i + 4).ok_or("short \\u escape")?;
        self.i += 4;
        u32::from_str_radix(std::str::from_utf8(h).map_err(|e| e.to_string())?, 16).map_err(|e| e.to_string())
    }
    fn string(&mut self) -> Result<String, String> {
        self.eat(b'"')?;
        let mut v: Vec<u8> = Vec::new();
        loop {
            let c = *self.b.get(self.i).ok_or("unterminated string")?;
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(v).map_err(|e| e.to_string()),
                b'\\' => {
                    let e = *self.b.get(self.i).ok_or("unterminated escape")?;
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let mut u = self.hex4()?;
                            if (0xd800..0xdc00).contains(&u) && self.b.get(self.i..self.i + 2) == Some(b"\\u") {
                                self.i += 2;
                                let lo = self.hex4()?;
                                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
                            }
                            char::from_u32(u).unwrap_or('\u{fffd}')
                        }
                        _ => return Err(format!("bad escape \\{}", e as char)),
                    };
                    let mut buf = [0u8; 4];
                    v.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                c => v.push(c),
            }
        }
    }
}

fn parse_request(line: &str) -> Result<(String, Vec<String>), String> {
    let mut r = Reader { b: line.as_bytes(), i: 0 };
    let (mut p, mut s) = (None, Vec::new());
    r.eat(b'{')?;
    while r.peek() != Some(b'}') {
        let key = r.string()?;
        r.eat(b':')?;
        match key.as_str() {
            "p" => p = Some(r.string()?),
            "s" => {
                r.eat(b'[')?;
                while r.peek() != Some(b']') {
                    s.push(r.string()?);
                    if r.peek() == Some(b',') {
                        r.i += 1;
                    }
                }
                r.eat(b']')?;
            }
            k => return Err(format!("unknown key {:?}", k)),
        }
        if r.peek() == Some(b',') {
            r.i += 1;
        }
    }
    r.eat(b'}')?;
    Ok((p.ok_or("no pattern")?, s))
}
