package brokkr.command;

import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What the CLI prints for a runtime error: a sentence, never a bare path or exception class. Java's file
 * exceptions carry only the path as their message ({@code NoSuchFileException: /x}); they are said in
 * words. An exception that wraps another keeps the cause's reason ({@code cannot open F: file is not a
 * database}), once.
 */
public final class ErrorMessages {
    private ErrorMessages() {}

    public static String describe(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            // "cannot read F" then F's NoSuchFileException: the path once, then what happened to it.
            String reason = c instanceof FileSystemException f
                            && f.getFile() != null
                            && f.getOtherFile() == null
                            && text.toString().contains(f.getFile())
                    ? fileProblem(f)
                    : own(c);
            if (reason == null || text.toString().contains(reason)) continue;
            if (!text.isEmpty()) text.append(": ");
            text.append(reason);
        }
        return text.isEmpty() ? words(e) : text.toString();
    }

    /**
     * One exception's own text: a file exception in words, or its message; null for a wrapper that adds
     * nothing ({@code new X(cause)} repeats the cause's {@code toString()}, and a message-less one says
     * nothing), whose cause then speaks.
     */
    private static String own(Throwable e) {
        if (e instanceof FileSystemException f) return file(f);
        String m = e.getMessage();
        if (m == null || m.isBlank()) return e.getCause() != null ? null : words(e);
        if (e.getCause() != null && m.equals(e.getCause().toString())) return null;
        return m;
    }

    private static String file(FileSystemException f) {
        String path = f.getFile() == null ? "" : f.getFile();
        String what = fileProblem(f);
        String other = f.getOtherFile() == null ? "" : " -> " + f.getOtherFile();
        return path.isEmpty() ? what : path + other + ": " + what;
    }

    private static String fileProblem(FileSystemException f) {
        String path = f.getFile() == null ? "" : f.getFile();
        return switch (f) {
            case NoSuchFileException x -> "no such file or directory";
            case FileAlreadyExistsException x ->
                path.isEmpty() || Files.isDirectory(Path.of(path))
                        ? "already exists"
                        : "already exists and is not a directory";
            case AccessDeniedException x -> "permission denied";
            case NotDirectoryException x -> "not a directory";
            case DirectoryNotEmptyException x -> "directory not empty";
            default -> f.getReason() == null ? words(f) : f.getReason();
        };
    }

    /** {@code NumberFormatException} -> "number format exception". */
    private static String words(Throwable e) {
        return e.getClass()
                .getSimpleName()
                .replaceAll("([a-z])([A-Z])", "$1 $2")
                .toLowerCase(Locale.ROOT);
    }
}
