// The call's LiveKit connection: a token lives 10 minutes, so "Try to connect again" asks for the
// participation again (a fresh lkToken) before it connects, and connects with the new token once.
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type * as LivekitClient from 'livekit-client';

const connects = vi.hoisted(() => [] as string[]);
vi.mock('livekit-client', async (importOriginal) => {
  const actual = await importOriginal<typeof LivekitClient>();
  /** A LiveKit room whose server cannot be reached. */
  class UnreachableRoom {
    canPlaybackAudio = true;
    localParticipant = { setMicrophoneEnabled: async () => undefined, setCameraEnabled: async () => undefined };
    on() {
      return this;
    }
    connect(_url: string, token: string) {
      connects.push(token);
      return Promise.reject(new Error('could not establish signal connection'));
    }
    disconnect() {
      return Promise.resolve();
    }
  }
  return { ...actual, Room: UnreachableRoom };
});

describe('reconnecting the call', () => {
  it('fetches a fresh token before it connects again', async () => {
    const { useLivekitRoom } = await import('../src/features/rooms/call/livekit-stage');
    const media = { microphone: false, camera: false };
    let rerender: (props: { token: string }) => void = () => undefined;
    const fresh = 'fresh-token';
    const refreshToken = vi.fn(async () => {
      // The participation fetched again carries a new token (unless it is still the same).
      act(() => rerender({ token: fresh }));
      return fresh;
    });
    const hook = renderHook(({ token }: { token: string }) => useLivekitRoom('ws://livekit.test', token, media, refreshToken), { initialProps: { token: 'old-token' } });
    rerender = hook.rerender;
    await waitFor(() => expect(hook.result.current.status).toBe('failed'));
    expect(connects).toEqual(['old-token']);

    act(() => hook.result.current.retry());
    expect(hook.result.current.status).toBe('connecting');
    await waitFor(() => expect(hook.result.current.status).toBe('failed'));
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(connects).toEqual(['old-token', 'fresh-token']);

    // The same token again (or none could be fetched): it still connects again, once.
    act(() => hook.result.current.retry());
    await waitFor(() => expect(connects).toHaveLength(3));
    expect(connects.at(-1)).toBe('fresh-token');
    await waitFor(() => expect(hook.result.current.status).toBe('failed'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(connects).toHaveLength(3);
  });
});
