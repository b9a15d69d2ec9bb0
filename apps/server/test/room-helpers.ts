// Factories for room tests, and a small WAV utterance made in code.
import { expect } from 'vitest';
import { pcmWav } from '../src/domain/rendering/speech/audio';
import { send, type Person } from './chat-helpers';

export async function createRoom(owner: Person, body: Record<string, unknown> = { title: 'Standup', languages: ['en', 'es'] }) {
  const answer = await send(owner, 'POST', '/api/rooms/', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: number; title: string; state: number };
}

/** Invites `who` to the room (by the owner); returns the participant id. */
export async function inviteParticipant(owner: Person, roomId: number, email: string, role = 1002): Promise<number> {
  const answer = await send(owner, 'POST', `/api/rooms/${roomId}/participants/`, { user: email, roomRole: role });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id as number;
}

/** Adds `who` to the room: invited, and `who` accepts; returns the participant id. */
export async function addParticipant(owner: Person, roomId: number, who: Person, role = 1002): Promise<number> {
  const id = await inviteParticipant(owner, roomId, who.email, role);
  const accepted = await send(who, 'POST', `/api/rooms/${roomId}/participant/accept/`);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return id;
}

export async function setState(owner: Person, roomId: number, state: number) {
  const answer = await send(owner, 'PATCH', `/api/rooms/${roomId}/state/`, { state });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

export async function setListening(who: Person, roomId: number, values: Record<string, unknown>) {
  const answer = await send(who, 'PATCH', `/api/rooms/${roomId}/participant/`, values);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** `seconds` of a quiet 440 Hz tone as 16 kHz mono 16-bit WAV. */
export function toneWav(seconds: number): Buffer {
  const rate = 16_000;
  const samples = Buffer.alloc(Math.round(seconds * rate) * 2);
  for (let i = 0; i < samples.length / 2; i++) samples.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 3000), i * 2);
  return pcmWav(samples, rate);
}

export function uploadForm(audio: Buffer, filename = 'utterance.wav', type = 'audio/wav'): FormData {
  const form = new FormData();
  form.append('audio', new Blob([new Uint8Array(audio)], { type }), filename);
  return form;
}

export const upload = (who: Person, roomId: number, form: FormData) => who.client.request('POST', `/api/rooms/${roomId}/segments/`, { form, xsrf: true });
