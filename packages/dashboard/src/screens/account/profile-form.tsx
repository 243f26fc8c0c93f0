import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Paper, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { UpdateUserSchema } from '@scrub/contract';
import type { UserInfo } from '@scrub/sdk';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { errorMessage } from '../../api/error-message';
import { useUpdateProfile } from '../../data/account';
import { showErrorDialog } from '../../shell/error-dialog';

/** The contract's own rule for the name (`PUT /user`), required here since the form always sends it. */
const ProfileSchema = z.object({ user_name: UpdateUserSchema.shape.user_name.unwrap() });
type ProfileFormValues = z.infer<typeof ProfileSchema>;

export function ProfileForm({ user }: { user: UserInfo }) {
  const form = useForm<ProfileFormValues>({
    resolver: zodResolver(ProfileSchema),
    defaultValues: { user_name: user.user_name },
  });
  const save = useUpdateProfile({
    onSuccess: () => {
      notifications.show({
        closeButtonProps: { 'aria-label': 'Close notification' },
        color: 'teal',
        message: 'Profile saved',
      });
    },
    onError: (error) => showErrorDialog('Error!', errorMessage(error)),
  });

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="profile-title">
      <Title order={2} size="h4" id="profile-title">
        Profile
      </Title>
      <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate>
        <TextInput mt="sm" label="Email" value={user.email} readOnly />
        <TextInput
          mt="sm"
          label="Name"
          autoComplete="name"
          error={form.formState.errors.user_name?.message}
          {...form.register('user_name')}
        />
        <Button type="submit" mt="md" loading={save.isPending}>
          Save
        </Button>
      </form>
    </Paper>
  );
}
