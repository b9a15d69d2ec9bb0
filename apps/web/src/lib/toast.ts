// Toasts with the spec's settings (section 9).
import { toast, type ToastContainerProps } from 'react-toastify';
import { TOAST_AUTO_CLOSE_MS } from '@parla/contract/constants';

export const toastSettings: ToastContainerProps = {
  position: 'top-right',
  autoClose: TOAST_AUTO_CLOSE_MS,
  pauseOnHover: true,
  pauseOnFocusLoss: true,
  closeOnClick: true,
  draggable: true,
  draggablePercent: 80,
};

export const notify = {
  error: (message: string) => toast.error(message),
  success: (message: string) => toast.success(message),
  info: (message: string) => toast.info(message),
};
