"""Images and audio: metadata, pictures for vision models, OCR of images."""
