// Icons of the call's controls (inline SVG, decorative: each button says what it does in words).
import type { ReactNode, SVGProps } from 'react';

function Icon({ children, ...props }: SVGProps<SVGSVGElement> & { children: ReactNode }) {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" {...props}>
      {children}
    </svg>
  );
}

export const MicIcon = () => (
  <Icon>
    <rect x="9" y="3" width="6" height="11" rx="3" />
    <path d="M5 11a7 7 0 0014 0M12 18v3" />
  </Icon>
);
export const MicOffIcon = () => (
  <Icon>
    <path d="M15 9.5V6a3 3 0 00-5.7-1.3M9 9v2a3 3 0 004.6 2.5" />
    <path d="M5 11a7 7 0 0011.3 5.5M19 11a7 7 0 01-.6 2.8M12 18v3M3 3l18 18" />
  </Icon>
);
export const CameraIcon = () => (
  <Icon>
    <rect x="3" y="6" width="13" height="12" rx="2" />
    <path d="M16 10l5-3v10l-5-3" />
  </Icon>
);
export const CameraOffIcon = () => (
  <Icon>
    <path d="M16 16v2H5a2 2 0 01-2-2V8a2 2 0 012-2h1M10 6h4a2 2 0 012 2v2l5-3v10" />
    <path d="M3 3l18 18" />
  </Icon>
);
export const SpeakerIcon = () => (
  <Icon>
    <path d="M4 9h4l5-4v14l-5-4H4z" />
    <path d="M16.5 8.5a5 5 0 010 7M19 6a8.5 8.5 0 010 12" />
  </Icon>
);
export const SpeakerOffIcon = () => (
  <Icon>
    <path d="M4 9h4l5-4v14l-5-4H4z" />
    <path d="M17 9l5 6M22 9l-5 6" />
  </Icon>
);
export const LeaveIcon = () => (
  <Icon className="icon-directional">
    <path d="M10 5H5v14h5M15 8l4 4-4 4M19 12H9" />
  </Icon>
);
