// Helpers for the live-room browser tests: a stack of their own (the speech providers they need),
// users activated on it, speech made by espeak-ng, and Chromium launched with a fake microphone
// that plays a WAV file once.
import { execFileSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { PASSWORD, linkFrom, uniqueEmail, type TestUser } from './fixtures';
import type { CaughtMail, Stack } from './stack';

/** Registers on `stack`, takes the key from the activation mail its catcher caught and verifies the address. */
export async function activatedUserOn(stack: Stack, fullName: string): Promise<TestUser> {
  const email = uniqueEmail(fullName.split(' ')[0]!.toLowerCase());
  const registered = await fetch(`${stack.baseURL}/api/accounts/registration/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password1: PASSWORD, password2: PASSWORD, fullName }),
  });
  if (registered.status !== 201) throw new Error(`registration failed (${registered.status}): ${await registered.text()}`);
  const deadline = Date.now() + 15_000;
  let mail: CaughtMail | undefined;
  while (!mail) {
    const names = (await readdir(stack.mailDir)).filter((name) => name.endsWith('.json'));
    const mails = await Promise.all(names.map(async (name) => JSON.parse(await readFile(path.join(stack.mailDir, name), 'utf8')) as CaughtMail));
    mail = mails.find((item) => item.to.includes(email.toLowerCase()));
    if (!mail) {
      if (Date.now() > deadline) throw new Error(`no activation mail to ${email}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const key = new URL(linkFrom(mail.text, '/signup/activation/')).pathname.split('/').filter(Boolean).pop();
  const verified = await fetch(`${stack.baseURL}/api/accounts/registration/verify-email/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key }),
  });
  if (!verified.ok) throw new Error(`activation failed (${verified.status}): ${await verified.text()}`);
  return { email, password: PASSWORD, fullName };
}

/** 16-bit mono PCM WAV: the samples of `wav` with silence before and after (Chromium's fake microphone plays it as is). */
function padWav(wav: Buffer, beforeSeconds: number, afterSeconds: number): Buffer {
  // espeak-ng writes a plain 44-byte header: RIFF, fmt (16 bytes), data.
  const sampleRate = wav.readUInt32LE(24);
  const channels = wav.readUInt16LE(22);
  const dataStart = wav.indexOf('data', 12, 'latin1') + 8;
  const data = wav.subarray(dataStart);
  const silence = (seconds: number) => Buffer.alloc(Math.round(seconds * sampleRate) * 2 * channels);
  const body = Buffer.concat([silence(beforeSeconds), data, silence(afterSeconds)]);
  const header = Buffer.from(wav.subarray(0, dataStart));
  header.writeUInt32LE(36 + body.length, 4);
  header.writeUInt32LE(body.length, dataStart - 4);
  return Buffer.concat([header, body]);
}

/** `text` spoken by espeak-ng (US English) into `file`, with 1.5 s of silence before and 3 s after. */
export async function speechFile(file: string, text: string): Promise<string> {
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', file, text]);
  await writeFile(file, padWav(await readFile(file), 1.5, 3));
  return file;
}

/**
 * `text` read by flite (its rms voice: human-like speech pocketsphinx understands, unlike
 * espeak-ng's) into `file`, with 1.5 s of silence before and 3 s after.
 */
export async function fliteSpeechFile(file: string, text: string): Promise<string> {
  execFileSync('flite', ['-voice', 'rms', '-t', text, '-o', file]);
  await writeFile(file, padWav(await readFile(file), 1.5, 3));
  return file;
}

/** Only silence, for a microphone that hears nothing. */
export async function silenceFile(file: string, seconds = 2): Promise<string> {
  const header = Buffer.alloc(44);
  const data = Buffer.alloc(16_000 * 2 * seconds);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16_000, 24);
  header.writeUInt32LE(32_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  await writeFile(file, Buffer.concat([header, data]));
  return file;
}

/** Chromium whose microphone plays `wavFile` once (then silence), with media permissions granted. */
export function launchWithMicrophone(wavFile: string): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${wavFile}%noloop`],
  });
}
