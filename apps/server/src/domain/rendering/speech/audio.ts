// Audio in and out of the speech pipeline. Uploads are recognised by their bytes (WAV, Ogg, WebM),
// never by their name or declared type, and measured as the decoder sees them: ffprobe decodes
// every upload, WAV included (a header's arithmetic is a second opinion a crafted file can make
// disagree with the decoder's), and a WAV whose chunks could be read in more than one way is
// refused before. One exception: a WAV that already is what is transcribed (16 kHz mono 16-bit
// PCM, a plain 44-byte header, its samples to the end: what the web client uploads) is used as it
// is, so its samples are what every step reads and their count is its length; no decoder runs for
// it (ffprobe's start alone cost ~45 ms of every utterance's way to its listeners). ffmpeg turns
// an upload into the 16 kHz mono 16-bit WAV pocketsphinx reads, never more than a second past the
// upload limit whatever the upload claims; opusenc turns WAV into the Ogg Opus every browser
// plays. ffmpeg and ffprobe are given the demuxer our check found and a short list of audio
// decoders, and read only from a pipe: an upload cannot make them open files or addresses.
import type { Readable } from 'node:stream';
import { LIMITS } from '@parla/contract/constants';
import { UnusableUtteranceError, type SpokenAudio, type Utterance } from './provider';
import { ProcessError, runProcess } from '../../../platform/process';

const PROBE_TIMEOUT_MS = 10_000;
const DECODE_TIMEOUT_MS = 30_000;
const ENCODE_TIMEOUT_MS = 60_000;

/** Uploads are measured up to twice the limit: enough to refuse a longer one, without decoding all of it. */
const MEASURE_MAX_SECONDS = 2 * LIMITS.segmentAudioMaxSeconds;
/** What is decoded for transcription: the limit and a second of slack (the measure rounds), never more. */
export const DECODE_MAX_SECONDS = LIMITS.segmentAudioMaxSeconds + 1;
/** 16 kHz mono 16-bit. */
const PCM16K_BYTES_PER_SECOND = 32_000;
const DECODE_MAX_BYTES = DECODE_MAX_SECONDS * PCM16K_BYTES_PER_SECOND;

/** Decoders an upload may use: what browsers record (Opus, Vorbis) and FLAC in Ogg. */
const COMPRESSED_DECODERS = 'opus,libopus,vorbis,libvorbis,flac';
const WAV_DECODERS = 'pcm_s16le,pcm_s24le,pcm_s32le,pcm_u8,pcm_f32le,pcm_f64le,pcm_alaw,pcm_mulaw';
/** Safari records AAC in MP4 (MediaRecorder's audio/mp4). */
const MP4_DECODERS = `aac,alac,${COMPRESSED_DECODERS}`;
const DEMUXER: Record<Utterance['format'], string> = { wav: 'wav', ogg: 'ogg', webm: 'matroska', mp4: 'mov' };
const DECODERS: Record<Utterance['format'], string> = { wav: WAV_DECODERS, ogg: COMPRESSED_DECODERS, webm: COMPRESSED_DECODERS, mp4: MP4_DECODERS };

/** The container, from the first bytes. */
export function detectFormat(data: Buffer): Utterance['format'] | null {
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WAVE') return 'wav';
  if (data.length >= 4 && data.toString('latin1', 0, 4) === 'OggS') return 'ogg';
  if (data.length >= 4 && data.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  // ISO base media: a box size, then the file type box.
  if (data.length >= 12 && data.toString('latin1', 4, 8) === 'ftyp') return 'mp4';
  return null;
}

// --- WAV ------------------------------------------------------------------------------------

export interface WavInfo {
  /** 1 PCM, 3 float, 6 A-law, 7 µ-law, 0xfffe extensible. */
  formatTag: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  blockAlign: number;
  byteRate: number;
  dataOffset: number;
  /** Bytes of samples present (a streamed WAV's placeholder size is replaced by what is there). */
  dataLength: number;
  /** By the header's arithmetic: what our own reading of the samples gives, not a decoder's. */
  durationSeconds: number;
}

const WAV_FORMATS = new Set([1, 3, 6, 7, 0xfffe]);

/**
 * The header of a RIFF/WAVE file, or null when it is not a playable one or could be read in more
 * than one way: decoders differ on which of two `fmt ` chunks counts (ffmpeg takes the first), and
 * on samples before their format or a second `data` chunk. Every chunk is looked at, also those
 * after the samples.
 */
export function parseWav(data: Buffer): WavInfo | null {
  if (detectFormat(data) !== 'wav') return null;
  let offset = 12;
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataLength' | 'durationSeconds'> | undefined;
  let samples: { offset: number; size: number } | undefined;
  while (offset + 8 <= data.length) {
    const id = data.toString('latin1', offset, offset + 4);
    const size = data.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (fmt || samples || size < 16 || body + 16 > data.length) return null;
      fmt = {
        formatTag: data.readUInt16LE(body),
        channels: data.readUInt16LE(body + 2),
        sampleRate: data.readUInt32LE(body + 4),
        byteRate: data.readUInt32LE(body + 8),
        blockAlign: data.readUInt16LE(body + 12),
        bitsPerSample: data.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!fmt || samples) return null;
      // A streamed WAV's placeholder size (0, or past the end) means the rest of the file, as to ffmpeg.
      if (size === 0) {
        samples = { offset: body, size: data.length - body };
        break;
      }
      samples = { offset: body, size };
    }
    offset = body + size + (size % 2);
  }
  if (!fmt || !samples) return null;
  const { formatTag, channels, sampleRate, blockAlign, byteRate, bitsPerSample } = fmt;
  if (!WAV_FORMATS.has(formatTag) || channels < 1 || channels > 8 || sampleRate < 4000 || sampleRate > 384_000) return null;
  if (![8, 16, 24, 32, 64].includes(bitsPerSample) || blockAlign !== (channels * bitsPerSample) / 8 || byteRate !== sampleRate * blockAlign) return null;
  const present = Math.min(samples.size, data.length - samples.offset);
  const dataLength = present - (present % blockAlign);
  return { ...fmt, dataOffset: samples.offset, dataLength, durationSeconds: dataLength / byteRate };
}

/**
 * A WAV that is already what pocketsphinx reads: 16 kHz mono 16-bit PCM, a plain 44-byte header,
 * its samples to the end of the file (nothing after them). Its bytes are transcribed as they are.
 */
function isPcm16kMono(data: Buffer, wav: WavInfo): boolean {
  return wav.formatTag === 1 && wav.channels === 1 && wav.sampleRate === 16_000 && wav.bitsPerSample === 16 && wav.dataOffset === 44 && wav.dataLength === data.length - 44;
}

/** A canonical 44-byte-header WAV around 16-bit little-endian samples. */
export function pcmWav(samples: Buffer, sampleRate: number, channels = 1): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

// --- Ogg Opus and MP3 durations (our own output and an OpenAI-compatible server's) ---------------

/** Playing time of an Ogg Opus stream from its last granule position and pre-skip; null otherwise. */
export function oggOpusDurationSeconds(data: Buffer): number | null {
  let offset = 0;
  let serial: number | undefined;
  let preSkip: number | undefined;
  let lastGranule = -1n;
  while (offset + 27 <= data.length && data.toString('latin1', offset, offset + 4) === 'OggS') {
    const segments = data[offset + 26] ?? 0;
    const tableEnd = offset + 27 + segments;
    if (tableEnd > data.length) break;
    let bodyLength = 0;
    for (let i = offset + 27; i < tableEnd; i++) bodyLength += data[i] ?? 0;
    const pageSerial = data.readUInt32LE(offset + 14);
    if (serial === undefined) {
      // The first page of the first stream carries its identification header.
      if (data.toString('latin1', tableEnd, tableEnd + 8) !== 'OpusHead' || tableEnd + 12 > data.length) return null;
      serial = pageSerial;
      preSkip = data.readUInt16LE(tableEnd + 10);
    } else if (pageSerial === serial) {
      const granule = data.readBigInt64LE(offset + 6);
      if (granule > lastGranule) lastGranule = granule;
    }
    offset = tableEnd + bodyLength;
  }
  if (serial === undefined || preSkip === undefined || lastGranule < 0n) return null;
  return Math.max(0, Number(lastGranule) - preSkip) / 48_000;
}

const MP3_BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const MP3_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** Bytes of the ID3v2 tag at the start of an MP3 (0 without one). */
export function id3v2Length(data: Buffer): number {
  if (data.length < 10 || data.toString('latin1', 0, 3) !== 'ID3') return 0;
  const size = ((data[6]! & 0x7f) << 21) | ((data[7]! & 0x7f) << 14) | ((data[8]! & 0x7f) << 7) | (data[9]! & 0x7f);
  return 10 + size + ((data[5]! & 0x10) !== 0 ? 10 : 0);
}

/** Playing time of an MPEG Layer III stream by walking its frames; null when it is not one. */
export function mp3DurationSeconds(data: Buffer): number | null {
  let offset = id3v2Length(data);
  let seconds = 0;
  let frames = 0;
  while (offset + 4 <= data.length) {
    if (frames > 0 && data.toString('latin1', offset, offset + 3) === 'TAG') {
      // An ID3v1 tag (128 bytes) where MP3 parts were joined.
      offset += 128;
      continue;
    }
    const header = data.readUInt32BE(offset);
    const version = (header >>> 19) & 3;
    const layer = (header >>> 17) & 3;
    const bitrateIndex = (header >>> 12) & 15;
    const rateIndex = (header >>> 10) & 3;
    if ((header & 0xffe00000) >>> 0 !== 0xffe00000 || version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) {
      // Something other than a frame: tags at the end are fine, anything before the first frame is not.
      break;
    }
    const rate = MP3_RATES[version]![rateIndex]!;
    const bitrate = (version === 3 ? MP3_BITRATES_V1 : MP3_BITRATES_V2)[bitrateIndex]! * 1000;
    const samples = version === 3 ? 1152 : 576;
    const length = Math.floor((samples / 8) * (bitrate / rate)) + ((header >>> 9) & 1);
    seconds += samples / rate;
    frames++;
    offset += length;
  }
  return frames > 0 ? seconds : null;
}

/** What a synthesised body is, from its bytes, with its playing time; null for anything else. */
export function describeSpokenAudio(data: Buffer): SpokenAudio | null {
  if (detectFormat(data) === 'ogg') {
    const seconds = oggOpusDurationSeconds(data);
    return seconds === null ? null : { data, contentType: 'audio/ogg', extension: 'ogg', durationSeconds: seconds };
  }
  const seconds = mp3DurationSeconds(data);
  return seconds === null ? null : { data, contentType: 'audio/mpeg', extension: 'mp3', durationSeconds: seconds };
}

// --- uploads ----------------------------------------------------------------------------------

function inputArgs(format: Utterance['format']): string[] {
  return [
    '-v', 'error', '-protocol_whitelist', 'pipe',
    '-f', DEMUXER[format], '-codec_whitelist', DECODERS[format],
    '-i', 'pipe:0',
  ];
}

/** A failure of the upload (unreadable, too slow to decode, too much output) rather than of this machine. */
const uploadsFault = (error: unknown) => error instanceof ProcessError && error.kind !== 'start';

/**
 * The utterance's container and playing time as the decoder sees it: a RIFF/WAVE file that can be
 * read only one way, or an Ogg, WebM or MP4 (Safari) file, whose first audio stream ffprobe decodes
 * (with the demuxer and decoders ffmpeg later gets); a WAV that already is 16 kHz mono 16-bit PCM
 * is measured by its samples (they are transcribed as they are). Null for anything else, for what
 * does not decode, and for no sound at all. Measured up to twice the upload limit: a longer
 * utterance is reported as about that long (the caller refuses it). Throws only when ffprobe itself
 * cannot be run (not installed).
 */
export async function inspectUtterance(data: Buffer): Promise<Utterance | null> {
  const format = detectFormat(data);
  if (format === null) return null;
  if (format === 'wav') {
    const wav = parseWav(data);
    if (!wav) return null;
    // Used as it is (toPcm16kMonoWav keeps it): its samples are what is transcribed, however many.
    if (isPcm16kMono(data, wav)) return measured(data, format, wav.durationSeconds);
  }
  let output: string;
  try {
    // Listing the decoded frames decodes them: a file that only starts like Ogg or WebM lists none.
    const args = [
      ...inputArgs(format),
      '-select_streams', 'a:0', '-read_intervals', `%+${MEASURE_MAX_SECONDS}`,
      '-show_entries', 'frame=pts_time,pkt_duration_time', '-of', 'csv=p=0',
    ];
    const result = await runProcess('ffprobe', args, { input: data, timeoutMs: PROBE_TIMEOUT_MS, maxOutputBytes: 4 * 1024 * 1024 });
    output = result.stdout.toString('utf8');
  } catch (error) {
    if (uploadsFault(error)) return null;
    throw error;
  }
  let first = Infinity;
  let end = -Infinity;
  for (const line of output.split('\n')) {
    const [pts, duration] = line.split(',').map(Number);
    if (pts === undefined || !Number.isFinite(pts)) continue;
    first = Math.min(first, pts);
    end = Math.max(end, pts + (duration !== undefined && Number.isFinite(duration) ? duration : 0));
  }
  const seconds = end - first;
  return measured(data, format, seconds);
}

/** The utterance with its playing time to the millisecond; null when there is no sound to play. */
function measured(data: Buffer, format: Utterance['format'], seconds: number): Utterance | null {
  return Number.isFinite(seconds) && seconds > 0 ? { data, format, durationSeconds: Math.round(seconds * 1000) / 1000 } : null;
}

/**
 * The utterance as 16 kHz mono 16-bit PCM WAV with a plain 44-byte header (what pocketsphinx
 * reads): such a WAV as it is, anything else decoded, down-mixed and resampled by ffmpeg (so what
 * is transcribed is what ffprobe measured). At most DECODE_MAX_SECONDS of it, whatever the upload
 * claims (ffmpeg's `-t`, and its output bounded). Throws UnusableUtteranceError when ffmpeg cannot
 * decode it, or not in time.
 */
export async function toPcm16kMonoWav(utterance: Utterance): Promise<Buffer> {
  const wav = utterance.format === 'wav' ? parseWav(utterance.data) : null;
  if (wav && isPcm16kMono(utterance.data, wav) && wav.dataLength <= DECODE_MAX_BYTES) return utterance.data;
  const args = [
    ...inputArgs(utterance.format),
    '-vn', '-map', '0:a:0', '-ac', '1', '-ar', '16000', '-t', String(DECODE_MAX_SECONDS), '-c:a', 'pcm_s16le', '-f', 's16le', 'pipe:1',
  ];
  try {
    // `-t` ends the output on time; the byte bound (a second more) is for a decoder that would not.
    const { stdout } = await runProcess('ffmpeg', args, { input: utterance.data, timeoutMs: DECODE_TIMEOUT_MS, maxOutputBytes: DECODE_MAX_BYTES + PCM16K_BYTES_PER_SECOND });
    return pcmWav(stdout.subarray(0, DECODE_MAX_BYTES), 16_000);
  } catch (error) {
    if (uploadsFault(error)) throw new UnusableUtteranceError(`the utterance could not be decoded: ${(error as Error).message}`, { cause: error });
    throw error;
  }
}

/**
 * WAV (a buffer, or a stream such as espeak-ng's stdout whose header has no real length) to Ogg
 * Opus, mono speech at 24 kbit/s. Constrained VBR at complexity 6 encodes espeak-ng's voice about
 * three times faster than the default 10 for the same size (8.5 minutes of speech: 3.6 s of CPU
 * instead of 9 s, 1.6 MB).
 */
export async function wavToOggOpus(wav: Buffer | Readable, timeoutMs = ENCODE_TIMEOUT_MS): Promise<SpokenAudio> {
  const args = ['--quiet', '--ignorelength', '--bitrate', '24', '--cvbr', '--comp', '6', '-', '-'];
  const { stdout } = await runProcess('opusenc', args, { input: wav, timeoutMs });
  const durationSeconds = oggOpusDurationSeconds(stdout);
  if (durationSeconds === null) throw new Error('opusenc wrote no Ogg Opus stream');
  return { data: stdout, contentType: 'audio/ogg', extension: 'ogg', durationSeconds };
}
