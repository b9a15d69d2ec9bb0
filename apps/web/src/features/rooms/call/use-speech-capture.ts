// The listener's own speech, captured in the browser: @ricky0123/vad-web's MicVAD (Silero v5 on
// onnxruntime-web, its model, worklet and wasm served from /vad/ by this build) hears the
// microphone and hands over each utterance as 16 kHz samples; each is written as a WAV and
// uploaded as a segment, one after another in the order said (each with its own clientId, tried
// again after no answer or a 5xx: the server stores it once). Works without LiveKit. Where the
// server recognises speech while it is spoken (speech-stream.ts), the frames go to it as they come
// instead, and only an utterance the stream could not take is uploaded.
import { useCallback, useEffect, useRef, useState } from 'react';
import { MicVAD } from '@ricky0123/vad-web';
import type { Segment } from '@parla/contract/rooms';
import { freshSession, uploadSegment } from '../api';
import { openSpeechStream, type SpeechStream, type StreamState } from './speech-stream';
import { durationOf, encodeWav, splitUtterance } from './wav';

export type CaptureState = 'off' | 'starting' | 'listening' | 'hearing' | 'sending' | 'error';
export type CaptureError = 'denied' | 'noMicrophone' | 'blocked' | 'failed';

/** Where the build puts the model, the worklet and onnxruntime's wasm (vite.config.ts). */
export const VAD_ASSETS = '/vad/';

function describe(error: unknown): CaptureError {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  // The page's Content-Security-Policy does not let onnxruntime compile its WebAssembly.
  if (/CompileError|Content Security Policy|unsafe-eval/i.test(`${name} ${message}`)) return 'blocked';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'NotReadableError') return 'noMicrophone';
  return 'failed';
}

export function useSpeechCapture(roomId: number, active: boolean, onUploaded: (segment: Segment) => void, prepare = false) {
  const [state, setState] = useState<CaptureState>('off');
  const [error, setError] = useState<{ kind: CaptureError; detail: string } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const detector = useRef<Promise<MicVAD> | null>(null);
  const activeRef = useRef(active);
  const sending = useRef(0);
  const chain = useRef<Promise<void>>(Promise.resolve());
  const uploaded = useRef(onUploaded);
  uploaded.current = onUploaded;
  activeRef.current = active;
  const stream = useRef<SpeechStream | null>(null);
  const [streamState, setStreamState] = useState<StreamState | 'off'>('off');
  const [behindMs, setBehindMs] = useState(0);

  const settle = useCallback(() => setState(activeRef.current ? (sending.current > 0 ? 'sending' : 'listening') : 'off'), []);

  const send = useCallback(
    (samples: Float32Array) => {
      // When each piece ended (now, for the last): its segment is timed by it, however long its
      // upload waits behind the others (issue 37: the transcript bunched up when uploads lagged).
      const pieces = splitUtterance(samples);
      let endedAt = performance.now();
      const ends = pieces.map(() => 0);
      for (let index = pieces.length - 1; index >= 0; index--) {
        ends[index] = endedAt;
        endedAt -= durationOf(pieces[index]!) * 1000;
      }
      pieces.forEach((piece, index) => {
        sending.current++;
        setState('sending');
        chain.current = chain.current
          .then(async () => {
            const segment = await uploadSegment(roomId, new Blob([encodeWav(piece)], { type: 'audio/wav' }), 'utterance.wav', { spokenAt: ends[index]! });
            if (segment) uploaded.current(segment);
          })
          // A refusal was shown by the error catalogue; the next utterance goes on.
          .catch(() => undefined)
          .finally(() => {
            sending.current--;
            settle();
          });
      });
    },
    [roomId, settle],
  );

  const sendRef = useRef(send);
  sendRef.current = send;

  /** The detector, made once: its model and WebAssembly load before the microphone is listened to. */
  const make = useCallback(
    () =>
      (detector.current ??= MicVAD.new({
        model: 'v5',
        baseAssetPath: VAD_ASSETS,
        onnxWASMBasePath: VAD_ASSETS,
        startOnLoad: false,
        // An utterance the listener cuts short by muting is still sent.
        submitUserSpeechOnPause: true,
        ortConfig: (ort) => {
          ort.env.logLevel = 'error';
          // No cross-origin isolation here: one thread, no worker.
          ort.env.wasm.numThreads = 1;
        },
        // Every frame, for the stream (a copy: the detector may reuse its buffer).
        onFrameProcessed: (_probabilities, frame: Float32Array) => stream.current?.frame(new Float32Array(frame)),
        onSpeechStart: () => {
          stream.current?.speechStart();
          setState((current) => (current === 'listening' ? 'hearing' : current));
        },
        onVADMisfire: () => {
          stream.current?.speechEnd(true);
          setState((current) => (current === 'hearing' ? 'listening' : current));
        },
        onSpeechEnd: (audio: Float32Array) => {
          // Streamed whole: the server has it. Otherwise (no stream here, or it dropped midway) uploaded.
          if (stream.current?.speechEnd()) return setState((current) => (current === 'hearing' ? 'listening' : current));
          sendRef.current(audio);
        },
      })),
    [],
  );

  useEffect(() => {
    if (!active) {
      setState('off');
      // Made ahead (the call's check screen): joining then only starts it.
      if (prepare && !detector.current) void make().catch(() => (detector.current = null));
      void detector.current?.then((vad) => vad.pause()).catch(() => undefined);
      return;
    }
    let cancelled = false;
    setError(null);
    setState('starting');
    make()
      .then(async (vad) => {
        if (cancelled) return;
        await vad.start();
        if (vad.errored) throw new Error(vad.errored);
        if (!cancelled) settle();
      })
      .catch((failure: unknown) => {
        // A detector that could not be made is made again on the next attempt.
        detector.current = null;
        if (cancelled) return;
        setError({ kind: describe(failure), detail: failure instanceof Error ? failure.message : String(failure) });
        setState('error');
      });
    return () => {
      cancelled = true;
    };
  }, [active, attempt, settle, prepare, make]);

  // The stream opens with the first time the microphone is on in the call, and stays until the call is left.
  useEffect(() => {
    if (!active || stream.current) return;
    stream.current = openSpeechStream(roomId, freshSession, { state: setStreamState, behind: setBehindMs });
  }, [active, roomId]);
  useEffect(
    () => () => {
      stream.current?.close();
      stream.current = null;
    },
    [],
  );

  // Leaving the call: the microphone is let go.
  useEffect(
    () => () => {
      const current = detector.current;
      detector.current = null;
      void current?.then((vad) => vad.destroy()).catch(() => undefined);
    },
    [],
  );

  const retry = useCallback(() => setAttempt((value) => value + 1), []);
  return { state, error, retry, streaming: streamState === 'ready', behindMs };
}
