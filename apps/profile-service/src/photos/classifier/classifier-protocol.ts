/** The messages between NsfwPhotoClassifier (main thread) and classifier.worker (its thread). */
export interface ClassifierRequest {
  id: number;
  /** Raw RGB at the model's input size (transferred); absent: only wait for the model to load. */
  pixels?: Uint8Array;
  /** How many of the model's classes to answer with. */
  classes: number;
}

export type ClassifierReply =
  | { id: number; predictions: { className: string; probability: number }[]; error?: undefined }
  | { id: number; error: string; predictions?: undefined };
