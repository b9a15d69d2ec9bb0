// A room's transcript as a file people download: plain text (`[hh:mm:ss] Alias: text` lines) or
// SubRip subtitles. Whatever participants wrote (aliases, transcripts, the title) goes in as one
// line each, so it can never start a line of its own: no forged speaker line, blank line, cue
// number or timing line. SubRip's styling tags (`<b>`, `{\an8}`) are broken with an invisible
// zero-width space, so players show what was said rather than style it.
import { cleanText } from '@parla/contract/fields';

export interface TranscriptLine {
  alias: string;
  text: string;
  /** Milliseconds from the start of the transcript. */
  startMs: number;
  endMs: number;
}

/** Text of any shape on one line: every run of white space holding a line break becomes one space. */
export function oneLine(text: string): string {
  return cleanText(text).replace(/\s*\n\s*/g, ' ').trim();
}

/** One line of a SubRip cue: no tag a player would read as styling. */
function cueText(text: string): string {
  return oneLine(text).replace(/([<{])/g, '$1\u200b');
}

function clock(ms: number, withMillis: boolean): string {
  const value = Math.max(0, Math.round(ms));
  const h = Math.floor(value / 3_600_000);
  const m = Math.floor((value % 3_600_000) / 60_000);
  const s = Math.floor((value % 60_000) / 1000);
  const pad = (n: number, size = 2) => String(n).padStart(size, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}${withMillis ? `,${pad(value % 1000, 3)}` : ''}`;
}

export function transcriptText(title: string, lines: TranscriptLine[]): string {
  const out = [oneLine(title), ''];
  for (const line of lines) out.push(`[${clock(line.startMs, false)}] ${oneLine(line.alias)}: ${oneLine(line.text)}`);
  return `${out.join('\n')}\n`;
}

export function transcriptSubRip(lines: TranscriptLine[]): string {
  return lines
    .map((line, index) => `${index + 1}\n${clock(line.startMs, true)} --> ${clock(line.endMs, true)}\n${cueText(line.alias)}: ${cueText(line.text)}\n`)
    .join('\n');
}
