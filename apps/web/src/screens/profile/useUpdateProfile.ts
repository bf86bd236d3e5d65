import type { ProfileUpdateRequest } from '@mate/api-client';
import type { OwnProfileDto } from '@mate/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/ApiContext';
import { useAuth } from '../../auth/AuthContext';
import { PROFILE_COMPLETION_QUERY_KEY } from '../../profile/useProfileCompletion';

/** PUT /api/profile/me; the answer's fields replace the ones in memory (photos stay as they are). */
export function useUpdateProfile() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { updateProfile } = useAuth();
  return useMutation({
    mutationFn: (update: ProfileUpdateRequest) => api.profile.updateMyProfile(update),
    onSuccess: (saved) => {
      // Whether the place was found travels with the profile, for the profile's notice (issue 25).
      const patch: Partial<OwnProfileDto> = {
        name: saved.name,
        age: saved.age,
        gender: saved.gender,
        bio: saved.bio,
        location: saved.location,
        height: saved.height,
        occupation: saved.occupation,
        education: saved.education,
        lookingFor: saved.lookingFor,
        interests: saved.interests,
        smoking: saved.smoking ?? null,
        drinking: saved.drinking ?? null,
        exercise: saved.exercise ?? null,
        pets: saved.pets ?? null,
        profileCompleted: saved.profileCompleted,
        locationResolved: saved.locationResolved,
      };
      updateProfile(patch);
      void queryClient.invalidateQueries({ queryKey: PROFILE_COMPLETION_QUERY_KEY });
    },
  });
}
