import { resendActivation } from './api';
import { EmailLinkPage } from './email-link-page';

export const ResendActivationPage = () => <EmailLinkPage send={resendActivation} texts="resend" />;
