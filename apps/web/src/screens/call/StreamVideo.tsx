import { useEffect, useRef } from 'react';

export interface StreamVideoProps {
  stream: MediaStream | null;
  label: string;
  /** The own camera: muted (no echo of one's own voice) and mirrored like a mirror. */
  self?: boolean;
  className?: string;
}

/** A <video> playing a MediaStream: React has no `srcObject` attribute, so it is set on the element. */
export function StreamVideo({ stream, label, self = false, className }: StreamVideoProps) {
  const videoRef = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    const video = videoRef.current;
    if (!video || video.srcObject === stream) return;
    video.srcObject = stream;
  }, [stream]);

  return (
    <video
      ref={videoRef}
      aria-label={label}
      className={className}
      autoPlay
      playsInline
      muted={self}
      style={self ? { transform: 'scaleX(-1)' } : undefined}
    />
  );
}
