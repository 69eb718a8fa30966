// The profile's limits.
// Values the server shares come from the generated module (`python -m agora constants`);
// what other parts use too lives in shared/constants.
import * as server from '../../shared/generated/serverConstants';

/** The spec sets no limit for a person's picture: it gets a post image's. */
export const PROFILE_IMAGE_MAX_BYTES = server.POST_FILE_MAX_BYTES;
