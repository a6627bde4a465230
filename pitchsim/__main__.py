from pitchsim.cli import main

main()
