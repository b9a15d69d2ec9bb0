// Starts the server on the configuration of the environment.
import { buildApp } from './app';
import { ConfigError, loadConfig } from './platform/config';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await buildApp(config);
  const stop = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Parla is up at ${config.publicUrl} (database: ${config.databaseUrl ? 'PostgreSQL' : 'PGlite'}, e-mail: ${config.smtpUrl ? 'SMTP' : 'outbox'})`);
}

void main();
