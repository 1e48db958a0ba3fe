"""The notes closing bench/redact/RESULTS.md: how the figures were taken and where the redactor's time goes."""

NOTES = """
Notes, honestly:

- Load average {load_end:.1f} at the end of the run. Throughput is noisy on this shared 2-CPU machine
  (other builds and tests run on it): the figures above are the best of the runs, not a guarantee
  under load; the same code measured again minutes later moves by 10-30%. The ratio to detect-secrets
  and to the ported gitleaks rules holds in every run.
- As installed: the bench compiles bot/ and handlers/ to bytecode before it imports them. Before each
  timed run (outside the clock) it collects the earlier runs' garbage and freezes what the harness itself
  holds (the corpus, its line lists); the cycle collector stays on, as in `rlark-bot redact`. Without
  that, a full collection inside a run walks the harness's lists (48-82 ms measured, in some runs).
- The corpus holds 31 ecosystem families besides the classic ones (cloud CLIs with short flags and positional keys,
  SDK constructors, s3fs/obsfs password files, quoted and piped passwords, ::add-mask::, curl -u in
  every quoting, vendor headers, cookies, W&B keys by their place, webhook UUIDs, .netrc, Kubernetes
  Secret data, values on the next line, Chinese key words, ANSI, double URL-encoding, new token
  formats, fold-wrapped tokens; and the third round's: a value echoed next to a command reading it from
  stdin, printf's positional arguments, a Kubernetes env value after its name behind log prefixes,
  box-drawing panels, colour codes inside a printed dict, an access key's ID beside its masked secret), each record
  in a random context (log prefix, ANSI, Chinese text, a
  JSON log envelope, URL-encoding), and 1% of clean lines are lookalikes of a secret's place
  (tests/redact/corpus/clean_ecosystem.txt). The planted density is kept at the classic corpus's (one
  record per ~230 lines), so these figures compare with theirs; a denser corpus is slower, since
  a line with a secret costs about 60 us in Python while the Hyperscan pass costs the same per MB.
- Lines that look like a secret's place (curl, docker login, password prompts, "data:") are
  prefilter candidates; in logs full of them throughput falls accordingly.
- The peers are scored as redactors: detect-secrets reports each distinct value once per file, so
  every occurrence of each reported value is masked, and so is the body of each private key it flags.
  The ported gitleaks rules mask their secret group.
- Every timed run of the redactor (and of `scan()`) uses a fresh `Redactor`: it keeps the findings of
  the most recent lines, and a second pass over the same corpus would profit from the first.
- The redactor's figures are `Redactor.redact()` in one process on one CPU. `rlark-bot redact` shares
  an input of more than one piece (4 MiB) out over forked helpers on the machine's other CPUs (same
  output); that is not what is timed here.
- Without Hyperscan (pure `re` fallback, `Redactor(use_hyperscan=False)`) the redactor is much
  slower; Hyperscan is a declared dependency.

Where the time of `redact()` goes (CPU time per 32 MB, each part timed apart, best of 7, load average
about 2): the Hyperscan pass 111-123 ms; encoding the text to UTF-8 for it 17 ms; cutting pieces, mapping
byte offsets back to characters and listing the candidate lines about 20 ms; the checks of the 2,409
candidate lines (1,120 of which hold a planted secret) 81-101 ms; the masked text 40-50 ms (one join of
the unchanged stretches and the masks) and its `SafeText` copy about 30 ms (CPython copies a `str` into
a subclass; both are fresh 63 MB strings, since this text holds Chinese). In all 290-320 ms, 100-110 MB/s
of CPU time. Two thirds of it (the pass, the encoding and the two copies) does not depend on how many
lines are candidates.

Measured on the Hyperscan pass and not taken:

- Its cost is the key-word patterns of the structure layer (about 75 ms of the pass; every other
  pattern together about 35 ms), and within them the word "token": in this corpus 36% of the lines
  hold it ("tokens/s", "max_new_tokens=", "pad_token_id="), and the same data with that word
  overwritten scans in 68 ms instead of 116 ms. Callbacks cost little: a scan with no match handler
  at all takes 1 ms less than one with a no-op handler (about 6,700 matches per 32 MB).
- Smaller reject tries in the key-word patterns (10 words instead of 60, or none): no change. A
  case-insensitive trie would be a third shorter but would also leave out "token_iD"-style keys that
  `classify` (which splits camelCase) calls secret's, so it is unsound.
- Splitting the database in two or three (key words, token prefixes, the rest), compiling the 520
  literal patterns with Hyperscan's literal compiler, or folding the command-line-flag patterns into the
  assignment patterns: each slower than the one database (by 5-50%). Leaving single key-word expressions
  out makes the whole pass slower too (up to 40%), so the database is not tuned expression by expression.
- Threads: every match calls back into Python, so a scan in a second thread waits for the
  interpreter lock at its matches while the first thread runs the line checks. Measured (load about 3):
  the pass in a thread beside the line checks ends after 256-372 ms, the two one after the other take
  236-283 ms.

What the line checks do to stay fast (identical output on this corpus and on the tests): a
substring test before each command-shape pattern that needs a word of its own (mysql/sshpass/login for
quoted passwords, echo/printf for piped ones, "curl" for cookies, "-u" for registry users, "wandb" and
"login" for W&B keys, "name" for Kubernetes name/value pairs, the HMAC, Bearer and OBS/AWS/OSS header
shapes), the end of a quoted value found with two `str.find` calls instead of a loop over its
characters, and whether a key names a training setting decided once per key. Against the previous line
checks in the same tree, instructions (callgrind, 8 MB of this corpus): `redact()` 817 M to 784 M (-4%),
`scan()` 514 M to 481 M (-6%); CPU time, run alternately four times each: median 347 ms against 370 ms
per 32 MB at load 1.7-1.9 (the first half of these changes), 460 ms against 484 ms at load 6 (all of them),
about -5%, within the machine's noise from one run to the next.
"""
