import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { StaticPage } from './static-page';

/** Seed 1's rules and messages. The captcha is a sum to type, checked here. */
const ContactSchema = z.object({
  name: z.string().trim().min(1, 'Name is required'),
  email: z.string().trim().min(1, 'Email is required').email('Invalid email address'),
  subject: z.string().trim().min(1, 'Subject is required'),
  message: z.string().trim().min(1, 'Message is required'),
  captcha: z
    .string()
    .trim()
    .refine((answer) => Number(answer) === 7, 'Recaptcha is required'),
});
type ContactForm = z.infer<typeof ContactSchema>;

/**
 * The form and its checks are here; sending needs a server route (mail through the outbox) that the
 * API does not have yet, so a valid form says how to reach support instead.
 */
export default function ContactPage() {
  const [done, setDone] = useState(false);
  const form = useForm<ContactForm>({
    resolver: zodResolver(ContactSchema),
    defaultValues: { name: '', email: '', subject: '', message: '', captcha: '' },
  });
  const { errors } = form.formState;
  return (
    <StaticPage title="Contact us">
      <form onSubmit={form.handleSubmit(() => setDone(true))} noValidate>
        <TextInput label="Name" withAsterisk error={errors.name?.message} {...form.register('name')} />
        <TextInput
          mt="sm"
          label="Email"
          type="email"
          withAsterisk
          error={errors.email?.message}
          {...form.register('email')}
        />
        <TextInput
          mt="sm"
          label="Subject"
          withAsterisk
          error={errors.subject?.message}
          {...form.register('subject')}
        />
        <Textarea
          mt="sm"
          label="Message"
          minRows={4}
          autosize
          withAsterisk
          error={errors.message?.message}
          {...form.register('message')}
        />
        <TextInput
          mt="sm"
          label="Are you human? What is 3 + 4?"
          inputMode="numeric"
          withAsterisk
          error={errors.captcha?.message}
          {...form.register('captcha')}
          maw={240}
        />
        <Button type="submit" mt="md">
          Send
        </Button>
      </form>
      {done && (
        <Alert color="yellow" role="status">
          Sending messages from this form is not available yet. Please e-mail support@scrub.example with your
          message.
        </Alert>
      )}
    </StaticPage>
  );
}
