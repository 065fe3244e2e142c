@echo off
rem deskclaw.cmd, the command line of an installed DeskClaw: runs DeskClaw.exe (two folders up)
rem in its --cli mode (src\main\electron\cli-mode.ts). No window opens. A batch file waits for the
rem app to finish, so the output and the exit code are the command's. Put this folder on PATH to type `deskclaw`.
"%~dp0..\..\DeskClaw.exe" --cli %*
exit /b %ERRORLEVEL%
