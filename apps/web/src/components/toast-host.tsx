// The toast container, loaded on demand with react-toastify and its styles.
import { useEffect } from 'react';
import { ToastContainer, toast } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';
import { attachToastApi, toastSettings } from '../lib/toast';

export default function ToastHost() {
  useEffect(() => attachToastApi(toast), []);
  return <ToastContainer {...toastSettings} />;
}
