// Preloaded into a server under test (`node --import tsx --import ./bench/cpu-profile-hook.ts ...`)
// so that its CPU profile covers the load only, not the start-up (tsx compiling, migrations,
// the scrypt of the sign-in). With BENCH_CPU_PROFILE=<file prefix> set, each SIGUSR2 toggles the
// V8 sampling profiler through the in-process inspector: the first starts it, the second stops it
// and writes `<prefix>-<n>.cpuprofile` (written aside and renamed, so a reader never sees half a
// file). BENCH_CPU_PROFILE_INTERVAL_US sets the sampling interval (default 250 µs).
// Without BENCH_CPU_PROFILE it does nothing. (`node --cpu-prof` works too with main.ts, whose
// SIGTERM path ends in process.exit, but its profile includes the start-up.)
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

const prefix = process.env.BENCH_CPU_PROFILE;
if (prefix) {
  const interval = Number(process.env.BENCH_CPU_PROFILE_INTERVAL_US ?? 250);
  const session = new Session();
  session.connect();
  let running = false;
  let count = 0;
  let busy: Promise<void> = Promise.resolve();
  const toggle = async () => {
    if (!running) {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval });
      await session.post('Profiler.start');
      running = true;
      return;
    }
    const { profile } = await session.post('Profiler.stop');
    running = false;
    const file = `${prefix}-${++count}.cpuprofile`;
    writeFileSync(`${file}.partial`, JSON.stringify(profile));
    renameSync(`${file}.partial`, file);
  };
  process.on('SIGUSR2', () => {
    busy = busy.then(toggle).catch((error: unknown) => console.error('cpu-profile-hook:', error));
  });
}
