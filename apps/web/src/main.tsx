// Placeholder shell until the web client lands: shows that the server and its API answer.
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { StatusResponse } from '@parla/contract/status';
import './styles.css';

function App() {
  const [status, setStatus] = useState<StatusResponse | 'error' | null>(null);
  useEffect(() => {
    fetch('/api/status/')
      .then((response) => response.json() as Promise<StatusResponse>)
      .then(setStatus)
      .catch(() => setStatus('error'));
  }, []);
  return (
    <main className="placeholder">
      <h1>Parla</h1>
      <p>Group chats and live rooms where everyone reads and hears everyone in their own language and tone.</p>
      <p role="status">
        {status === null && 'Checking the server…'}
        {status === 'error' && 'The server does not answer.'}
        {status && status !== 'error' && `Server ${status.status}, version ${status.version}.`}
      </p>
      <p>
        The API is documented at <a href="/api/docs">/api/docs</a>.
      </p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
