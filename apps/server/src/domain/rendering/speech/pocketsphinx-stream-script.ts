// The Python that runs one long-lived pocketsphinx decoder for one speaker (Debian's
// python3-pocketsphinx 5prealpha: `Decoder`, `process_raw`, `hyp`, `get_in_speech`, `start_utt`,
// `end_utt`, the calls of its own `pocketsphinx_continuous`). It reads records from stdin and writes
// one JSON line per event on stdout:
//   in:  'a' + u32le length + 16 kHz mono s16le samples; 'e' + u32le 0 (the speaker's client heard
//        the utterance end: finish it now); 'q' + u32le 0 (quit)
//   out: {"k":"r"} ready; {"k":"p","text":…,"at":n} the words so far (when they change);
//        {"k":"f","text":…,"from":n,"to":n} an utterance ended (its own voice activity detection
//        heard the pause, or 'e'); {"k":"e"} an 'e' was done (after its final, if any);
//        {"k":"t","at":n} samples decoded so far (after each record).
// Sample positions count from the first sample the decoder got. It gets SIGTERM when our process
// dies (Linux's parent-death signal), and exits when stdin closes.

import { PYTHON_BOUND_TO_PARENT } from '../../../platform/process';

/** Run as `python3 -c POCKETSPHINX_STREAM <our pid> <hmm> <lm> <dict>`. */
export const POCKETSPHINX_STREAM = `
import json, os, signal, struct, sys
${PYTHON_BOUND_TO_PARENT}from pocketsphinx import Decoder
config = Decoder.default_config()
config.set_string('-hmm', sys.argv[2])
config.set_string('-lm', sys.argv[3])
config.set_string('-dict', sys.argv[4])
config.set_string('-logfn', '/dev/null')
# Half the work of the defaults for the same words on read speech (measured): no second flat pass,
# fewer active HMMs and words per frame. Live speech must keep up on a small machine.
config.set_boolean('-fwdflat', False)
config.set_int('-maxhmmpf', 3000)
config.set_int('-maxwpf', 10)
decoder = Decoder(config)
out = sys.stdout
def say(event):
    out.write(json.dumps(event, separators=(',', ':')) + '\\n')
    out.flush()
stdin = sys.stdin.buffer
def read(count):
    data = b''
    while len(data) < count:
        chunk = stdin.read(count - len(data))
        if not chunk:
            return None
        data += chunk
    return data
decoder.start_utt()
at = 0
asked = 0
began = None
last = ''
speaking = False
def finish():
    global began, last, speaking
    decoder.end_utt()
    hyp = decoder.hyp()
    text = hyp.hypstr if hyp is not None else ''
    if began is not None or text:
        say({'k': 'f', 'text': text, 'from': began if began is not None else at, 'to': at})
    decoder.start_utt()
    began = None
    last = ''
    speaking = False
say({'k': 'r'})
while True:
    head = read(5)
    if head is None:
        break
    kind = head[0:1]
    (length,) = struct.unpack('<I', head[1:5])
    body = read(length) if length else b''
    if body is None:
        break
    if kind == b'q':
        break
    if kind == b'e':
        finish()
        say({'k': 'e'})
        continue
    if kind != b'a' or length % 2:
        continue
    decoder.process_raw(body, False, False)
    at += length // 2
    now = decoder.get_in_speech()
    if now and began is None:
        began = at
    # The words so far, every quarter of a second of audio (a backtrace each time).
    if at - asked >= 4000:
        asked = at
        hyp = decoder.hyp()
        text = hyp.hypstr if hyp is not None else ''
        if text != last:
            last = text
            say({'k': 'p', 'text': text, 'at': at})
    if speaking and not now:
        finish()
    else:
        speaking = now
    say({'k': 't', 'at': at})
`;
